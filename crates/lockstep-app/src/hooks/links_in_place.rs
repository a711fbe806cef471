//! Following a link between the app's pages in place. The links are the pages' real relative
//! paths (`crate::link::Here`), so that they work without the app: in the page the build
//! rendered, read before (or without) the wasm, by a search engine, in a new tab. The running app
//! does not load the page again for them: it moves in place, as it did when its links were
//! fragments. A plain click (the primary button, no modifier key) on a link that opens in this
//! tab (no `target`, no `download`) to a page of the site is taken over: the address is pushed
//! onto the history and a `popstate` is sent, which `use_url_sync` follows as it follows Back
//! and Forward. Anything else is the browser's: a link out, a file of the site that is not a page
//! (`scenarios/x.json`, the book, `embed.js`), an embed's page (a binary of its own), an in-page
//! anchor, a click meant for a new tab or window.
//!
//! A link's target is read from its own `href` attribute, resolved against the page its markup
//! was written from (the site's root and [`Here`]'s path), not against the document's address:
//! the two agree once the URL shows the page, but the URL writer may hold a moment back for a
//! while (`use_url_sync`'s quiet spell), and while a link's scenario loads it keeps the link.

use crate::link::Here;
use crate::platform::browser;
use gloo_events::{EventListener, EventListenerOptions};
use lockstep_view::link::path;
use lockstep_view::link::route::Route;
use wasm_bindgen::JsCast;
use web_sys::{Element, MouseEvent, PopStateEvent, Url};
use yew::prelude::*;

/// Takes over plain clicks on links between the app's pages, written from `here`, for as long
/// as the site is shown.
#[hook]
pub fn use_links_in_place(here: Here) {
    use_effect_with(here, |here| {
        let here = here.clone();
        let listener = browser::window()
            .and_then(|w| w.document())
            .map(|document| {
                // Never passive: the click's default is what is taken over.
                let options = EventListenerOptions::enable_prevent_default();
                EventListener::new_with_options(&document, "click", options, move |event| {
                    if let Some(click) = event.dyn_ref::<MouseEvent>()
                        && let Some(url) = page_link(click, &here)
                    {
                        click.prevent_default();
                        open(&url);
                    }
                })
            });
        move || drop(listener)
    });
}

/// The address of the site's page a plain click on a link goes to, written from `here`; `None`
/// where the click is the browser's.
fn page_link(click: &MouseEvent, here: &Here) -> Option<String> {
    let plain = click.button() == 0
        && !(click.ctrl_key() || click.meta_key() || click.shift_key() || click.alt_key());
    if !plain || click.default_prevented() {
        return None;
    }
    let link = click
        .target()?
        .dyn_into::<Element>()
        .ok()?
        .closest("a[href]")
        .ok()??;
    if link.has_attribute("target") || link.has_attribute("download") {
        return None;
    }
    let href = link.get_attribute("href")?;
    // An in-page anchor (the site's own links name a page's path).
    if href.starts_with('#') {
        return None;
    }
    let root = browser::site_root();
    if root.is_empty() {
        return None;
    }
    let url = Url::new_with_base(&href, &format!("{root}{}", here.path)).ok()?;
    if !url.search().is_empty() {
        return None;
    }
    let target = url.href();
    let place = target.strip_prefix(&root)?;
    let place_path = place.split('#').next().unwrap_or_default();
    is_page(place_path, &url.hash()).then_some(target)
}

/// Whether the site-relative `place_path` and its `hash` name a page the app opens in place: a
/// page's path (not a file's, not an embed's).
fn is_page(place_path: &str, hash: &str) -> bool {
    match path::address(place_path, hash) {
        Ok(address) => !matches!(Route::parse(&address), Some(Route::Embed(_))),
        Err(_) => false,
    }
}

/// Moves to `url` in place: a history entry (none for the page already shown, as a link to it
/// would not add one), then `popstate`, which the site follows.
fn open(url: &str) {
    let Some(window) = browser::window() else {
        return;
    };
    if let Ok(history) = window.history() {
        let same = window.location().href().is_ok_and(|now| now == url);
        let _ = if same {
            history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url))
        } else {
            history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url))
        };
    }
    if let Ok(event) = PopStateEvent::new("popstate") {
        let _ = window.dispatch_event(&event);
    }
}
