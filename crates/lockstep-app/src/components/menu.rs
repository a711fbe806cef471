//! What the setup bar's menus (`<details>` with a `<summary>` button) share: choosing an item
//! closes the menu, and Escape closes it and gives the focus back to its button, as a menu does.

use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Closes the menu `details` refers to.
pub fn close(details: &NodeRef) {
    if let Some(details) = details.cast::<web_sys::HtmlDetailsElement>() {
        details.set_open(false);
    }
}

/// A key handler for the menu: Escape closes it and focuses its button.
pub fn escape_closes(details: &NodeRef) -> Callback<KeyboardEvent> {
    let details = details.clone();
    Callback::from(move |event: KeyboardEvent| {
        let Some(menu) = details.cast::<web_sys::HtmlDetailsElement>() else {
            return;
        };
        if event.key() == "Escape" && menu.open() {
            menu.set_open(false);
            if let Some(summary) = menu
                .query_selector("summary")
                .ok()
                .flatten()
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = summary.focus();
            }
        }
    })
}
