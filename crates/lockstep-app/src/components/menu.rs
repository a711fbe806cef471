//! What the setup bar's menus (`<details>` with a `<summary>` button) share: choosing an item
//! closes the menu, and Escape closes it and gives the focus back to its button, as a menu does;
//! an opened menu is moved in from the window's edges (`use_keep_in_window`).

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

/// Once the menu opens, its list (`.more-menu`) is shifted sideways just enough to lie inside
/// the window, whatever the width and wherever its button sits. A listener of the element's
/// own: `toggle` does not bubble, so it never reaches Yew's listeners at the root.
#[hook]
pub fn use_keep_in_window(details: &NodeRef) {
    let details = details.clone();
    use_effect_with((), move |_| {
        let listener = details.cast::<web_sys::Element>().map(|menu| {
            gloo_events::EventListener::new(&menu, "toggle", move |_| fit_in_window(&details))
        });
        move || drop(listener)
    });
}

fn fit_in_window(details: &NodeRef) {
    const MARGIN: f64 = 8.0;
    let Some(menu) = details.cast::<web_sys::HtmlDetailsElement>() else {
        return;
    };
    let Some(list) = menu.query_selector(".more-menu").ok().flatten() else {
        return;
    };
    let _ = list.remove_attribute("style");
    let width = crate::platform::browser::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .unwrap_or(0.0);
    if !menu.open() || width <= 0.0 {
        return;
    }
    let rect = list.get_bounding_client_rect();
    let shift = if rect.left() < MARGIN {
        MARGIN - rect.left()
    } else if rect.right() > width - MARGIN {
        (width - MARGIN - rect.right()).max(MARGIN - rect.left())
    } else {
        0.0
    };
    if shift != 0.0 {
        let _ = list.set_attribute("style", &format!("transform: translateX({shift:.0}px)"));
    }
}
