//! Handing the page over from the story binary to the full one (decision 33). The page's
//! loader (`assets/boot.js`, `window.lockstepBoot`) fetches and compiles the full binary, stops
//! the story's app and starts the full one. What crosses is text in the tab's session storage,
//! in the documented formats only: the playground's link (`docs/test-hooks.md`), and which
//! dialog to open. This module talks to the loader and that storage; it decides nothing about
//! what the page shows.

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen_futures::JsFuture;

/// The session-storage key of the playground's link while the full binary takes over.
const PLAYGROUND_KEY: &str = "lockstep-handoff-playground";
/// The session-storage key of the dialog the full binary opens on arrival (`builder`).
const OPEN_KEY: &str = "lockstep-handoff-open";

/// Fetches the full binary, reporting bytes received and expected, then hands the page to it.
/// Returns only if that failed, with why; on success the story's app is gone.
pub async fn to_full(on_progress: impl Fn(u64, u64) + 'static) -> String {
    let progress = Closure::<dyn Fn(f64, f64)>::new(move |received: f64, total: f64| {
        // Byte counts fit well inside f64's exact integers.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        on_progress(received.max(0.0) as u64, total.max(0.0) as u64);
    });
    let promise = match handoff_function() {
        Some(handoff) => handoff.call1(&JsValue::NULL, progress.as_ref().unchecked_ref()),
        None => return "this page has no loader for the rest of the app".to_owned(),
    };
    let outcome = match promise {
        Ok(promise) => JsFuture::from(Promise::from(promise)).await.map(|_| ()),
        Err(error) => Err(error),
    };
    drop(progress);
    match outcome {
        Ok(()) => String::new(),
        Err(error) => crate::platform::browser::reason(&error),
    }
}

/// `window.lockstepBoot.handoff`, if the page's loader defined it.
fn handoff_function() -> Option<Function> {
    let window = crate::platform::browser::window()?;
    let boot = Reflect::get(&window, &JsValue::from_str("lockstepBoot")).ok()?;
    Reflect::get(&boot, &JsValue::from_str("handoff"))
        .ok()?
        .dyn_into::<Function>()
        .ok()
}

/// Keeps what the full binary must restore: the playground's link and the dialog to open.
pub fn leave(playground: Option<&str>, open: Option<&str>) {
    let Some(storage) =
        crate::platform::browser::window().and_then(|w| w.session_storage().ok().flatten())
    else {
        return;
    };
    // Storage refused: the full binary opens on the address alone, the default playground.
    for (key, value) in [(PLAYGROUND_KEY, playground), (OPEN_KEY, open)] {
        let _ = match value {
            Some(value) => storage.set_item(key, value),
            None => storage.remove_item(key),
        };
    }
}

/// What the story left for this page: its playground's link, taken (read once).
pub fn take_playground() -> Option<String> {
    take(PLAYGROUND_KEY)
}

/// Whether the story asked for `dialog` to open on arrival, taken (read once).
pub fn take_open(dialog: &str) -> bool {
    take(OPEN_KEY).is_some_and(|open| open == dialog)
}

fn take(key: &str) -> Option<String> {
    let storage = crate::platform::browser::window()?
        .session_storage()
        .ok()
        .flatten()?;
    let value = storage.get_item(key).ok().flatten();
    let _ = storage.remove_item(key);
    value
}
