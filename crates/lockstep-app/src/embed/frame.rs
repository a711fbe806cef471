//! The browser services an embed needs from the page around it: telling the host page its
//! height, watching its own size and whether it is on screen, asking for reduced motion, and
//! putting its theme on the page for this view only.
//!
//! `ResizeObserver`, `IntersectionObserver` and `window.requestResize` are looked up by name
//! at run time: a browser without one gets an embed without that service (it still posts its
//! height once), never a failure. Nothing here can panic; nothing here changes the playground.

use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

/// The message's `type`, and its `version`: a host that reads version 1 reads exactly
/// `{ type, version, height }`.
pub const SIZE_MESSAGE: &str = "lockstep:embed-size";
pub const SIZE_VERSION: u32 = 1;

/// The height of `element` in whole CSS pixels (rounded up: a frame a fraction too short
/// would scroll).
pub fn height_of(element: &Element) -> u32 {
    function_of(element, "getBoundingClientRect")
        .and_then(|measure| measure.call0(element).ok())
        .and_then(|rect| Reflect::get(&rect, &"height".into()).ok())
        .and_then(|height| height.as_f64())
        .map_or(0, |height| height.max(0.0).ceil() as u32)
}

/// Tells the page around the embed (if there is one) the embed's content height, as
/// `{ type: "lockstep:embed-size", version: 1, height }` to any origin (it carries nothing
/// private), and asks a browser that sizes frames to their content (`frame-sizing:
/// content-height`) to measure again (`window.requestResize()`, where it exists).
pub fn announce_height(height: u32) {
    let Some(window) = crate::platform::browser::window() else {
        return;
    };
    if let Some(request) = function_of(&window, "requestResize") {
        let _ = request.call0(&window);
    }
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if JsValue::from(parent.clone()) == JsValue::from(window.clone()) {
        return;
    }
    let message = Object::new();
    let _ = Reflect::set(&message, &"type".into(), &SIZE_MESSAGE.into());
    let _ = Reflect::set(&message, &"version".into(), &SIZE_VERSION.into());
    let _ = Reflect::set(&message, &"height".into(), &height.into());
    let _ = parent.post_message(&message, "*");
}

/// A browser observer kept alive with its callback; disconnected when dropped.
pub struct Observer {
    observer: JsValue,
    _callback: Closure<dyn FnMut(JsValue)>,
}

impl Drop for Observer {
    fn drop(&mut self) {
        if let Some(disconnect) = function_of(&self.observer, "disconnect") {
            let _ = disconnect.call0(&self.observer);
        }
    }
}

/// Calls `changed` whenever `element`'s size changes (and once when it starts), or `None`
/// where the browser has no `ResizeObserver`.
pub fn observe_size(element: &Element, mut changed: impl FnMut() + 'static) -> Option<Observer> {
    observe(
        "ResizeObserver",
        element,
        Closure::new(move |_: JsValue| changed()),
    )
}

/// Calls `seen(true)` when `element` comes into the top page's viewport and `seen(false)` when
/// it leaves it, or `None` where the browser has no `IntersectionObserver`.
pub fn observe_view(element: &Element, seen: impl Fn(bool) + 'static) -> Option<Observer> {
    let callback = Closure::new(move |entries: JsValue| {
        let Ok(entries) = entries.dyn_into::<Array>() else {
            return;
        };
        // The latest entry says where the element is now.
        if let Some(entry) = entries.iter().last() {
            let intersecting = Reflect::get(&entry, &"isIntersecting".into())
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(true);
            seen(intersecting);
        }
    });
    observe("IntersectionObserver", element, callback)
}

fn observe(
    constructor: &str,
    element: &Element,
    callback: Closure<dyn FnMut(JsValue)>,
) -> Option<Observer> {
    let window = crate::platform::browser::window()?;
    let constructor = function_of(&window, constructor)?;
    let observer = Reflect::construct(&constructor, &Array::of1(callback.as_ref())).ok()?;
    function_of(&observer, "observe")?
        .call1(&observer, element)
        .ok()?;
    Some(Observer {
        observer,
        _callback: callback,
    })
}

/// Whether the visitor asked for reduced motion (`prefers-reduced-motion: reduce`).
pub fn prefers_reduced_motion() -> bool {
    let Some(window) = crate::platform::browser::window() else {
        return false;
    };
    function_of(&window, "matchMedia")
        .and_then(|m| {
            m.call1(&window, &"(prefers-reduced-motion: reduce)".into())
                .ok()
        })
        .and_then(|list| Reflect::get(&list, &"matches".into()).ok())
        .and_then(|matches| matches.as_bool())
        .unwrap_or(false)
}

/// Puts `word` (light, dark, auto) on `<html data-theme>` for this view; the visitor's stored
/// choice for the full app is left as it is.
pub fn show_theme(word: &str) {
    crate::platform::browser::mark("theme", word);
}

fn function_of(target: &JsValue, name: &str) -> Option<Function> {
    Reflect::get(target, &name.into())
        .ok()?
        .dyn_into::<Function>()
        .ok()
}
