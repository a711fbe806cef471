//! Where a binary's app mounts: the page's root element (`#lockstep-root`, decision 43). On a
//! page the build rendered it holds that page's markup; Yew empties it and renders the same
//! markup in the same task, before the browser paints again, so the page does not move. The
//! loading frame beside it (index.html) goes at the same moment.
//!
//! Called where a binary starts, never while rendering.

use crate::platform::browser;
use web_sys::Element;

/// The id of the element the app renders into.
pub const ROOT_ID: &str = "lockstep-root";

/// The root to mount into, with the loading frame gone; `None` without a document. A page
/// without the root (an older copy of index.html) gets one at the end of `<body>`.
pub fn root() -> Option<Element> {
    let document = browser::window()?.document()?;
    if let Some(frame) = document
        .query_selector("[data-testid=\"loading-frame\"]")
        .ok()
        .flatten()
    {
        frame.remove();
    }
    // The page's own root shows again if a fragment had hidden it for another page's.
    if let Some(html) = document.document_element() {
        let _ = html.remove_attribute("data-stale");
    }
    if let Some(root) = document.get_element_by_id(ROOT_ID) {
        return Some(root);
    }
    let root = document.create_element("div").ok()?;
    root.set_id(ROOT_ID);
    document.body()?.append_child(&root).ok()?;
    Some(root)
}
