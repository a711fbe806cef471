//! The story binary (decision 33): the playground and an embed's moment, which the page's loader
//! (`assets/boot.js`) starts first. Everything else lives in the library, so that tests can
//! import it; built without the `full` feature, the library hands the pages it lacks to the full
//! binary (`lockstep::platform::handoff`), for which the loader calls [`stop`].

use std::cell::RefCell;
use wasm_bindgen::prelude::wasm_bindgen;
use yew::AppHandle;

thread_local! {
    /// The running app, kept so that the loader can stop it.
    static APP: RefCell<Option<AppHandle<lockstep::App>>> = const { RefCell::new(None) };
}

fn main() {
    lockstep::start::start(|app: AppHandle<lockstep::App>| {
        APP.with(|slot| *slot.borrow_mut() = Some(app));
    });
}

/// Stops the app and empties the page of it, before the full binary starts in its place.
#[wasm_bindgen(js_name = lockstepStop)]
pub fn stop() {
    if let Some(app) = APP.with(|slot| slot.borrow_mut().take()) {
        app.destroy();
    }
}
