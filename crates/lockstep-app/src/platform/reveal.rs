//! Bringing the playground's timeline into view once a link has opened it: a chaos lab seed's
//! link is followed from far down the lab page (the browser keeps that scroll), or opened afresh
//! on a phone, where the setup fills the first screen. Waits (a few frames, at most
//! [`PATIENCE_MS`]) until the playground shows a scenario with the expected title, if one is
//! given; then, unless the timeline already stands in the window above the fixed transport bar,
//! scrolls so that the title line and the timeline do — or, when both do not fit, the timeline
//! alone from its top. Gives up quietly.

use gloo_timers::callback::Timeout;
use web_sys::{Element, Window};

/// How long to wait for the playground to show the run.
const PATIENCE_MS: u32 = 5_000;
/// How often to look.
const EVERY_MS: u32 = 50;
/// The space left above what is scrolled to.
const MARGIN_PX: f64 = 8.0;

/// Scrolls the timeline into view once the playground shows it (with a scenario whose title
/// contains `title`, if given).
pub fn timeline_when_shown(title: Option<String>) {
    look(title, PATIENCE_MS / EVERY_MS);
}

fn look(title: Option<String>, tries_left: u32) {
    Timeout::new(EVERY_MS, move || {
        let Some(window) = crate::platform::browser::window() else {
            return;
        };
        if shows(&window, title.as_deref()) {
            scroll(&window);
        } else if tries_left > 0 {
            look(title, tries_left - 1);
        }
    })
    .forget();
}

fn find(window: &Window, selector: &str) -> Option<Element> {
    window.document()?.query_selector(selector).ok().flatten()
}

fn shows(window: &Window, title: Option<&str>) -> bool {
    find(window, "[data-testid=\"timeline-main\"]").is_some()
        && title.is_none_or(|title| {
            find(window, "[data-testid=\"scenario-name\"]")
                .and_then(|name| name.text_content())
                .is_some_and(|name| name.contains(title))
        })
}

fn scroll(window: &Window) {
    let Some(timeline) = find(window, "[data-testid=\"timeline-main\"]") else {
        return;
    };
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    // What the fixed transport bar covers at the window's bottom.
    let room = find(window, ".transport-bar")
        .map(|bar| bar.get_bounding_client_rect().top())
        .filter(|top| *top > 0.0)
        .unwrap_or(height);
    let timeline = timeline.get_bounding_client_rect();
    if timeline.top() >= 0.0 && timeline.bottom() <= room {
        return;
    }
    let title_top = find(window, "[data-testid=\"scenario-name\"]")
        .map(|name| name.get_bounding_client_rect().top())
        .unwrap_or(timeline.top());
    let top = if timeline.bottom() - title_top + 2.0 * MARGIN_PX <= room {
        title_top
    } else {
        timeline.top()
    };
    window.scroll_to_with_x_and_y(0.0, window.scroll_y().unwrap_or(0.0) + top - MARGIN_PX);
}
