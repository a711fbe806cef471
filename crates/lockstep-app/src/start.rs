//! Where a binary's app starts (decision 43): the address read from the window, the files the
//! page needs fetched first when the build has drawn that page already, then the app mounted
//! over it (`platform::mount`). So the app's first render draws the page the build drew — the
//! scenario, the lesson and its run, the material — rather than "Loading…" over it.
//!
//! A page the build did not draw (any address with a fragment: an old link, a shared moment, a
//! custom scenario) mounts at once and loads its files as it always has, saying so on the page. Called only by the binaries.

use crate::AppProps;
use crate::page_files;
use crate::platform::{browser, library, mount};
use yew::{AppHandle, BaseComponent, Renderer};

/// Mounts `C` at the page's address, once what a drawn page needs is in hand, and gives its
/// handle to `keep`.
pub fn start<C>(keep: impl FnOnce(AppHandle<C>) + 'static)
where
    C: BaseComponent<Properties = AppProps>,
{
    // The site's root is read against the address the page was loaded at, before the app
    // writes another into the address bar.
    let _ = browser::site_root();
    let address = browser::address();
    let path = browser::page_path();
    wasm_bindgen_futures::spawn_local(async move {
        if drawn_by_the_build() {
            fetch_files_of(&address).await;
        }
        let props = AppProps {
            address: address.into(),
            path: path.into(),
        };
        keep(match mount::root() {
            Some(root) => Renderer::<C>::with_root_and_props(root, props).render(),
            None => Renderer::<C>::with_props(props).render(),
        });
    });
}

/// Whether the page holds the build's drawing of the page its address names
/// (`<html data-rendered>` without `data-stale`, index.html).
fn drawn_by_the_build() -> bool {
    browser::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .is_some_and(|html| {
            html.has_attribute("data-rendered") && !html.has_attribute("data-stale")
        })
}

/// Fetches the files the page at `address` draws from (`crate::page_files`). A file that fails
/// is left to the app, which fetches it again and says what went wrong, as on any page.
async fn fetch_files_of(address: &str) {
    let content = if page_files::needs_material(address) {
        let Ok(content) = library::content().await else {
            return;
        };
        Some(content)
    } else {
        None
    };
    for id in page_files::scenarios(address, content.as_deref()) {
        let _ = library::built_in(id).await;
    }
}
