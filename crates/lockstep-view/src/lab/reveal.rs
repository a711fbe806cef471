//! Whether, and where, to scroll so the lab's headline comes into view once the first results
//! of a Run arrive: on a phone the settings fill the first screen and the headline lands below
//! it. Once per Run press, and never against the user: if they scrolled since pressing Run,
//! the page stays where they put it; a headline already whole in the window stays too.
//!
//! The user scrolled when both the window's offset and the Run row's place in the window moved:
//! the settings folding above the row moves one of the two but not both (the row, or, when the
//! browser keeps what is in view in place, the offset).
//!
//! Pure geometry in CSS pixels; the app measures and scrolls.

/// The space left above the headline once scrolled to.
pub const MARGIN_PX: f64 = 8.0;
/// How far the page may have moved since Run before that counts as the user scrolling.
pub const USER_MOVED_PX: f64 = 24.0;

/// What the app measured when the headline first showed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Seen {
    /// The window's scroll offset when Run was pressed.
    pub scroll_at_run: f64,
    /// The window's scroll offset now.
    pub scroll_now: f64,
    /// The Run row's top, relative to the window, when Run was pressed and now.
    pub actions_at_run: f64,
    pub actions_now: f64,
    /// The headline's top and bottom, relative to the window.
    pub top: f64,
    pub bottom: f64,
    /// The window's height.
    pub height: f64,
}

/// The scroll offset to go to, if any.
pub fn scroll_to(seen: Seen) -> Option<f64> {
    let moved = |then: f64, now: f64| (now - then).abs() > USER_MOVED_PX;
    let user_moved =
        moved(seen.scroll_at_run, seen.scroll_now) && moved(seen.actions_at_run, seen.actions_now);
    let whole = seen.top >= 0.0 && seen.bottom <= seen.height;
    (!user_moved && !whole).then(|| (seen.scroll_now + seen.top - MARGIN_PX).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PHONE: Seen = Seen {
        scroll_at_run: 0.0,
        scroll_now: 0.0,
        actions_at_run: 500.0,
        actions_now: 500.0,
        top: 760.0,
        bottom: 880.0,
        height: 700.0,
    };

    #[test]
    fn a_headline_below_the_first_screen_is_brought_to_the_top() {
        assert_eq!(scroll_to(PHONE), Some(752.0));
        let scrolled = Seen {
            scroll_at_run: 100.0,
            scroll_now: 110.0,
            actions_now: 490.0,
            top: 650.0,
            ..PHONE
        };
        assert_eq!(scroll_to(scrolled), Some(752.0));
    }

    #[test]
    fn the_settings_folding_above_the_run_row_is_not_the_user_scrolling() {
        // The row moved up by the folded form's height …
        let folded = Seen {
            actions_now: 200.0,
            top: 460.0,
            bottom: 580.0 + 300.0,
            ..PHONE
        };
        assert_eq!(scroll_to(folded), Some(452.0));
        // … or the browser moved the offset to keep the row in place.
        let anchored = Seen {
            scroll_at_run: 400.0,
            scroll_now: 100.0,
            top: 660.0,
            ..PHONE
        };
        assert_eq!(scroll_to(anchored), Some(752.0));
    }

    #[test]
    fn a_headline_already_in_the_window_stays_where_it_is() {
        let desktop = Seen {
            top: 420.0,
            bottom: 540.0,
            height: 800.0,
            ..PHONE
        };
        assert_eq!(scroll_to(desktop), None);
    }

    #[test]
    fn a_user_who_scrolled_since_run_is_left_alone() {
        let moved = Seen {
            scroll_now: 300.0,
            actions_now: 200.0,
            top: 460.0,
            ..PHONE
        };
        assert_eq!(scroll_to(moved), None);
    }
}
