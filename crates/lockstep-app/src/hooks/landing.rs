//! Where a page opens when the visitor moves to it inside the app (issue 42): another page at
//! its top, and the playground on its story — the title and the timeline above the transport bar
//! (`platform::reveal`) — wherever the page before had been scrolled to. The window keeps its
//! scroll across a move in place, so a phone would land 600–1,200 px down, on the event log.
//!
//! Only a move between pages: a lesson's steps or the playground's moments place themselves, and
//! a page the browser loads is the browser's to place. Nothing here changes the run.

use crate::platform::{browser, reveal};
use lockstep_view::link::route::Route;
use yew::prelude::*;

/// Places the window whenever `route` moves to another page than the one shown.
#[hook]
pub fn use_landing(route: &Route) {
    let first = use_mut_ref(|| true);
    let page = (
        std::mem::discriminant(route),
        matches!(route, Route::Playground),
    );
    use_effect_with(page, move |(_, playground)| {
        if std::mem::replace(&mut *first.borrow_mut(), false) {
            return;
        }
        if *playground {
            reveal::timeline_when_shown(None);
        } else {
            browser::scroll_to_top();
        }
    });
}
