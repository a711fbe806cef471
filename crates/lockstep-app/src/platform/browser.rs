//! The few browser services the app uses beyond rendering: the URL fragment, local storage,
//! downloads, the clipboard, marks on `<html>` for tests, and the words of an error the browser
//! threw. Each fails quietly to a `Result` or a no-op; none of them can panic.

use lockstep_view::link::path;
use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};

/// The browser's window. Natively (the build's render, issue 41) there is none, so every
/// browser service here is a no-op there: a page rendered at build time must not depend on it.
pub fn window() -> Option<web_sys::Window> {
    #[cfg(target_arch = "wasm32")]
    return web_sys::window();
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// The app's address (`crate::AppProps`): what the page's path and the URL's fragment say
/// together (`lockstep_view::link::path`). A fragment that names a page or a moment of its own
/// (an old `#…` link, a link clicked inside the app) is the address wherever it is; a path the
/// site has no page for reads as its fragment alone.
pub fn address() -> String {
    let hash = fragment();
    let path = page_path();
    if path.is_empty() || names_its_own_place(&hash) {
        return hash;
    }
    path::address(&path, &hash).unwrap_or(hash)
}

/// Where the page is: its path from the site's root (`embed/s1/at=3/`; empty at the root, or
/// outside the site), as loaded (`crate::AppProps::path`).
pub fn page_path() -> String {
    let Some(here) = window().and_then(|w| w.location().href().ok()) else {
        return String::new();
    };
    let here = here.split(['#', '?']).next().unwrap_or_default();
    let path = here.strip_prefix(site_root().as_str()).unwrap_or_default();
    // A host may show a page's file by its name.
    path.strip_suffix("index.html").unwrap_or(path).to_owned()
}

/// Whether `fragment` says which page or moment to open, whatever path it follows.
fn names_its_own_place(fragment: &str) -> bool {
    !path::locate(fragment).path.is_empty()
        || lockstep_view::link::route::Route::parse(fragment).is_some()
        || ["s=", "scenario=", "chaos="]
            .iter()
            .any(|name| fragment.starts_with(name))
}

thread_local! {
    static SITE_ROOT: std::cell::OnceCell<String> = const { std::cell::OnceCell::new() };
}

/// The site's root as an absolute address ending in `/`, from the page's
/// `<meta name="lockstep-base">`: the build writes the way back from a page's folder (decision
/// 43), and index.html's first script makes it absolute against the address the page was
/// loaded at, before any binary runs (the full binary starts after the story has moved the
/// address bar). Read once.
pub fn site_root() -> String {
    SITE_ROOT.with(|root| {
        root.get_or_init(|| {
            let Some(window) = window() else {
                // The build's render: the address the site is published at.
                return std::env::var("LOCKSTEP_SITE_URL").unwrap_or_default();
            };
            let base = window
                .document()
                .and_then(|d| d.query_selector("meta[name=lockstep-base]").ok().flatten())
                .and_then(|meta| meta.get_attribute("content"))
                .unwrap_or_else(|| "./".to_owned());
            let here = window.location().href().unwrap_or_default();
            Url::new_with_base(&base, &here)
                .map(|url| url.href())
                .unwrap_or_default()
        })
        .clone()
    })
}

/// The address of the site's file `path` (`scenarios/s1.json`), from whichever page asks.
pub fn site_file(path: &str) -> String {
    format!("{}{path}", site_root())
}

/// The URL's fragment, without the `#`.
pub fn fragment() -> String {
    window()
        .and_then(|w| w.location().hash().ok())
        .map(|h| h.trim_start_matches('#').to_owned())
        .unwrap_or_default()
}

/// Shows the app's `address` in the address bar (its page's path and its fragment,
/// [`link_with`]) without adding a history entry or firing `hashchange`.
pub fn replace_address(address: &str) {
    if let Some(history) = window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&link_with(address)),
        );
    }
}

/// Puts `data-<name>="<value>"` on `<html>`: a state the app has settled in, for the browser
/// tests and anyone automating the page to wait on (`docs/test-hooks.md`).
pub fn mark(name: &str, value: &str) {
    if let Some(root) = window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute(&format!("data-{name}"), value);
    }
}

/// Sets the document's title (the tab's, the history's): called from an effect, as the page
/// changes in place.
pub fn set_title(title: &str) {
    if let Some(document) = window().and_then(|w| w.document()) {
        document.set_title(title);
    }
}

/// What the browser said when it threw `error`: an `Error`'s or `DOMException`'s name and
/// message, a thrown string as it is, anything else as the console would write it.
pub fn reason(error: &wasm_bindgen::JsValue) -> String {
    let field = |name: &str| {
        js_sys::Reflect::get(error, &name.into())
            .ok()
            .and_then(|v| v.as_string())
            .filter(|s| !s.is_empty())
    };
    match (field("name"), field("message"), error.as_string()) {
        (Some(name), Some(message), _) => format!("{name}: {message}"),
        (None, Some(message), _) => message,
        (_, None, Some(text)) => text,
        _ => format!("{error:?}"),
    }
}

/// Loads the page again (the address has changed what kind of page it is).
pub fn reload() {
    if let Some(window) = window() {
        let _ = window.location().reload();
    }
}

/// The link to the app's `address` (a fragment's text): its page's path under the site's root,
/// and what stays in the fragment. What "Share" copies.
pub fn link_with(address: &str) -> String {
    let place = path::locate(address);
    let mut url = format!("{}{}", site_root(), place.path);
    if !place.hash.is_empty() {
        url.push('#');
        url.push_str(&place.hash);
    }
    url
}

/// Offers `text` as a file called `name`.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let document = window().and_then(|w| w.document()).ok_or("no document")?;
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| "the browser refused to make the file")?;
    let url = Url::create_object_url_with_blob(&blob).map_err(|_| "no object URL")?;
    let anchor: HtmlAnchorElement = document
        .create_element("a")
        .map_err(|_| "no anchor")?
        .dyn_into()
        .map_err(|_| "no anchor")?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    let _ = Url::revoke_object_url(&url);
    Ok(())
}

/// Puts `text` on the clipboard, where the browser allows it.
pub fn copy(text: &str) {
    if let Some(window) = window() {
        let _ = window.navigator().clipboard().write_text(text);
    }
}

/// Moves the keyboard's focus to the first element matching `selector`, if there is one.
pub fn focus(selector: &str) {
    let element = window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(element) = element {
        let _ = element.focus();
    }
}

/// Scrolls the window to the page's top.
pub fn scroll_to_top() {
    if let Some(window) = window() {
        window.scroll_to_with_x_and_y(0.0, 0.0);
    }
}

/// Moves the keyboard's focus to the first element matching `selector` if the focus was lost
/// (it is on the page's body, as when the focused element was just removed), without scrolling:
/// the caller decides what the window shows.
pub fn focus_if_lost(selector: &str) {
    let Some(document) = window().and_then(|w| w.document()) else {
        return;
    };
    let lost = document
        .active_element()
        .is_none_or(|active| document.body().is_some_and(|body| active == *body));
    let element = document
        .query_selector(selector)
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(element) = element.filter(|_| lost) {
        let options = web_sys::FocusOptions::new();
        options.set_prevent_scroll(true);
        let _ = element.focus_with_options(&options);
    }
}

/// Scrolls the window up to the top of the first element matching `selector` if that top has
/// gone above the window (the window scrolled past it); otherwise leaves the scroll alone.
pub fn reveal_top(selector: &str) {
    let Some(window) = window() else {
        return;
    };
    let mut element = window
        .document()
        .and_then(|d| d.query_selector(selector).ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    // The element's top in the document: its offsets summed up its offset parents.
    let mut top = 0;
    let found = element.is_some();
    while let Some(e) = element {
        top += e.offset_top();
        element = e
            .offset_parent()
            .and_then(|p| p.dyn_into::<web_sys::HtmlElement>().ok());
    }
    let scrolled = window.scroll_y().unwrap_or(0.0);
    if found && scrolled > f64::from(top) {
        window.scroll_to_with_x_and_y(0.0, f64::from(top - 8).max(0.0));
    }
}

/// What the browser's local storage keeps under `key`, if it keeps anything (and may be read).
pub fn stored(key: &str) -> Option<String> {
    window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(key).ok().flatten())
}

/// Keeps `value` under `key` in the browser's local storage; nothing if storage is refused.
pub fn store(key: &str, value: &str) {
    if let Some(storage) = window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.set_item(key, value);
    }
}
/// The local-storage key that says this browser has visited before: the guided start shows only
/// when it is absent (`docs/test-hooks.md`; the browser tests set it to be a returning visitor).
const VISITED_KEY: &str = "lockstep-visited";

/// Whether this browser has visited before. Storage refused (a private window) reads as a
/// return: better to miss the guided start than to force it on every load.
pub fn visited() -> bool {
    window()
        .and_then(|w| w.local_storage().ok().flatten())
        .is_none_or(|s| s.get_item(VISITED_KEY).ok().flatten().is_some())
}

/// Notes that this browser has visited, so the guided start never shows again.
pub fn mark_visited() {
    if let Some(storage) = window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.set_item(VISITED_KEY, "1");
    }
}

/// The attribute that marks the one element the guided start points at.
const POINTED: &str = "data-guide-target";

/// Marks the first element matching `selector` (none for `None`) as the one the guided start
/// points at, and unmarks any other. The stylesheet draws the mark; the element's own component
/// never sets this attribute, so its renders keep it.
pub fn point_at(selector: Option<&str>) {
    let Some(document) = window().and_then(|w| w.document()) else {
        return;
    };
    while let Some(marked) = document
        .query_selector(&format!("[{POINTED}]"))
        .ok()
        .flatten()
    {
        let _ = marked.remove_attribute(POINTED);
    }
    if let Some(element) = selector.and_then(|s| document.query_selector(s).ok().flatten()) {
        let _ = element.set_attribute(POINTED, "");
    }
}

/// Scrolls the page just enough to bring the first element matching `selector` into view above
/// the window's lowest `clearance` px (where the transport bar sits), if it is not there.
pub fn reveal(selector: &str, clearance: f64) {
    let Some(window) = window() else {
        return;
    };
    let element = window
        .document()
        .and_then(|d| d.query_selector(selector).ok().flatten());
    let Some((_, top, bottom)) = element.as_ref().and_then(box_of) else {
        return;
    };
    let (_, height) = window_size();
    let below = bottom - (height - clearance);
    if below > 0.0 {
        window.scroll_by_with_x_and_y(0.0, below);
    } else if top < 0.0 {
        window.scroll_by_with_x_and_y(0.0, top);
    }
}

/// The widest window that gets the phone's layout (the stylesheet's `max-width: 640px`).
const PHONE_WIDTH: f64 = 640.0;

/// On a phone's window, scrolls the page just enough to lift the first element matching
/// `selector` out from under the fixed transport bar (`.transport-bar`), if it is under it,
/// keeping its top in view. A wider window is left alone: there the story is laid out to keep
/// the main timeline on the first screen, and a comparison's "now" line sits below the fold on
/// purpose. An element above the window (the user reading further down) stays where it is; a
/// page without the bar (an embed) is left alone.
pub fn lift_above_bar(selector: &str) {
    if window_size().0 > PHONE_WIDTH {
        return;
    }
    let Some(document) = window().and_then(|w| w.document()) else {
        return;
    };
    let boxed = |s: &str| {
        document
            .query_selector(s)
            .ok()
            .flatten()
            .as_ref()
            .and_then(box_of)
    };
    let (Some((_, top, bottom)), Some((_, bar, _))) = (boxed(selector), boxed(".transport-bar"))
    else {
        return;
    };
    let under = (bottom - bar).min(top);
    if under > 0.0
        && let Some(window) = window()
    {
        window.scroll_by_with_x_and_y(0.0, under.ceil());
    }
}

/// An element's box in the window (left, top, bottom, in px), read through
/// `getBoundingClientRect` looked up at run time.
pub fn box_of(element: &web_sys::Element) -> Option<(f64, f64, f64)> {
    let method = js_sys::Reflect::get(element, &"getBoundingClientRect".into()).ok()?;
    let rect = method
        .dyn_into::<js_sys::Function>()
        .ok()?
        .call0(element)
        .ok()?;
    let field = |name: &str| js_sys::Reflect::get(&rect, &name.into()).ok()?.as_f64();
    Some((field("left")?, field("top")?, field("bottom")?))
}

/// The window's inner width and height, in px.
pub fn window_size() -> (f64, f64) {
    let window = window();
    let read = |value: Option<Result<wasm_bindgen::JsValue, _>>| {
        value
            .and_then(Result::ok)
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0)
    };
    (
        read(window.as_ref().map(web_sys::Window::inner_width)),
        read(window.as_ref().map(web_sys::Window::inner_height)),
    )
}

/// The session-storage key of the folded panels the user opened (`name`) or closed (`-name`) in
/// this visit.
const OPEN_PANELS_KEY: &str = "lockstep-open-panels";

/// The folded panels' last choices in this visit (the tab's session): `name` opened, `-name`
/// closed.
pub fn opened_panels() -> Vec<String> {
    window()
        .and_then(|w| w.session_storage().ok().flatten())
        .and_then(|s| s.get_item(OPEN_PANELS_KEY).ok().flatten())
        .map(|names| names.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default()
}

/// Keeps `names` as the folded panels' choices in this visit. Storage refused: they are as at
/// first on the next page, no worse than before.
pub fn keep_opened_panels(names: &[String]) {
    if let Some(storage) = window().and_then(|w| w.session_storage().ok().flatten()) {
        let _ = storage.set_item(OPEN_PANELS_KEY, &names.join(" "));
    }
}

/// Whether `element` has the keyboard's focus.
pub fn has_focus(element: &web_sys::Element) -> bool {
    window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .is_some_and(|active| &active == element)
}
