//! Brings the lab's headline into view when a Run's first results show, as
//! [`lockstep_view::lab::reveal`] decides: once per Run press, not after the user scrolled,
//! smoothly unless they asked for reduced motion. Measures and scrolls; decides nothing.

use js_sys::{Function, Object, Reflect};
use lockstep_view::lab::reveal::{Seen, scroll_to};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

/// Where the page stood when Run was pressed.
#[derive(Clone, Copy, PartialEq)]
pub struct AtRun {
    scroll: f64,
    actions: f64,
}

/// The window's scroll offset now (0 when it cannot be read).
fn scroll_y() -> f64 {
    crate::platform::browser::window()
        .and_then(|w| w.scroll_y().ok())
        .unwrap_or(0.0)
}

fn find(selector: &str) -> Option<Element> {
    crate::platform::browser::window()?
        .document()?
        .query_selector(selector)
        .ok()
        .flatten()
}

/// The Run row's top, relative to the window.
fn actions_top() -> f64 {
    find(".lab-actions").map_or(0.0, |a| a.get_bounding_client_rect().top())
}

/// Where the page stands now, as Run is pressed.
pub fn at_run() -> AtRun {
    AtRun {
        scroll: scroll_y(),
        actions: actions_top(),
    }
}

/// Scrolls the headline into view if it is on the page, out of the window, and the user has
/// not scrolled since `at_run`.
pub fn headline(at_run: AtRun) {
    let Some(window) = crate::platform::browser::window() else {
        return;
    };
    let Some(headline) = find("[data-testid=\"lab-headline\"]") else {
        return;
    };
    let rect = headline.get_bounding_client_rect();
    let seen = Seen {
        scroll_at_run: at_run.scroll,
        scroll_now: scroll_y(),
        actions_at_run: at_run.actions,
        actions_now: actions_top(),
        top: rect.top(),
        bottom: rect.bottom(),
        height: window
            .inner_height()
            .ok()
            .and_then(|h| h.as_f64())
            .unwrap_or(0.0),
    };
    let Some(top) = scroll_to(seen) else { return };
    let behavior = if crate::embed::frame::prefers_reduced_motion() {
        "instant"
    } else {
        "smooth"
    };
    // `scrollTo({top, behavior})` through Reflect: web-sys's options type is a feature this
    // crate does not otherwise need.
    let options = Object::new();
    let set = |key: &str, value: JsValue| Reflect::set(&options, &key.into(), &value).is_ok();
    if !(set("top", top.into()) && set("behavior", behavior.into())) {
        return;
    }
    if let Some(scroll) = Reflect::get(&window, &"scrollTo".into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
    {
        let _ = scroll.call1(&window, &options);
    }
}
