//! The page: the embed view (`crate::embed::view`) for an embed's address, which stays an embed
//! for the page's life; else the site (`crate::pages::site`), whose route picks the page. The
//! embed binary mounts [`EmbedApp`], the embed view alone.
//!
//! The address is the app's input, a prop: the binaries read it from the window where the wasm
//! starts (`platform::browser::address`), and the build's render (issue 41) gives the page's own.
//! Nothing under here reads the window's address while rendering.

use crate::embed::view::EmbedView;
use crate::hooks::initial_route;
use crate::link::Here;
use crate::pages::site::Site;
use lockstep_view::link::embed::EmbedSpec;
use lockstep_view::link::error::LinkError;
use lockstep_view::link::route::Route;
use yew::prelude::*;

/// What a page opens with.
#[derive(Properties, PartialEq, Clone)]
pub struct AppProps {
    /// The app's address: a URL fragment's text, without the `#` (`lockstep_view::link`).
    pub address: AttrValue,
    /// Where the page is: its path from the site's root, as loaded (`` at the root). An embed
    /// writes its links from there; the site writes them from its address's page.
    pub path: AttrValue,
}

/// Marks `<html data-app="running">` once the app has drawn its first render: on a page the build
/// rendered, the markup is there before the app is (`docs/test-hooks.md`).
#[hook]
fn use_running_mark() {
    use_effect_with((), |_| crate::platform::browser::mark("app", "running"));
}

#[component]
pub fn App(props: &AppProps) -> Html {
    use_running_mark();
    let address = props.address.clone();
    match initial_route(&address) {
        Route::Embed(embed) => embed_at(embed, &props.path),
        _ => html! { <Site {address} /> },
    }
}

/// The embed view, its links written from the page's `path`.
fn embed_at(embed: Result<EmbedSpec, LinkError>, path: &AttrValue) -> Html {
    let here = Here {
        path: path.to_string(),
    };
    html! {
        <ContextProvider<Here> context={here}><EmbedView {embed} /></ContextProvider<Here>>
    }
}

/// The embed binary's app (decision 33): the page's loader starts it for an embed's address
/// only, so any other address is another page: load it again, and the loader picks its binary.
#[component]
pub fn EmbedApp(props: &AppProps) -> Html {
    use_running_mark();
    match initial_route(&props.address) {
        Route::Embed(embed) => embed_at(embed, &props.path),
        _ => {
            crate::platform::browser::reload();
            Html::default()
        }
    }
}
