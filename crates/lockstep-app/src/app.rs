//! The page: the embed view (`crate::embed::view`) for an embed's address, which stays an embed
//! for the page's life; else the site (`crate::pages::site`), whose route picks the page. The
//! embed binary mounts [`EmbedApp`], the embed view alone.
//!
//! The address is the app's input, a prop: the binaries read it from the window where the wasm
//! starts (`platform::browser::address`), and the build's render (issue 41) gives the page's own.
//! Nothing under here reads the window's address while rendering.

use crate::embed::view::EmbedView;
use crate::hooks::initial_route;
use crate::pages::site::Site;
use lockstep_view::link::route::Route;
use yew::prelude::*;

/// What a page opens with.
#[derive(Properties, PartialEq, Clone)]
pub struct AppProps {
    /// The app's address: a URL fragment's text, without the `#` (`lockstep_view::link`).
    pub address: AttrValue,
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
        Route::Embed(embed) => html! { <EmbedView {embed} /> },
        _ => html! { <Site {address} /> },
    }
}

/// The embed binary's app (decision 33): the page's loader starts it for an embed's address
/// only, so any other address is another page: load it again, and the loader picks its binary.
#[component]
pub fn EmbedApp(props: &AppProps) -> Html {
    use_running_mark();
    match initial_route(&props.address) {
        Route::Embed(embed) => html! { <EmbedView {embed} /> },
        _ => {
            crate::platform::browser::reload();
            Html::default()
        }
    }
}
