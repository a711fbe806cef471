//! The page: the embed view (`crate::embed::view`) for an embed's address, which stays an embed
//! for the page's life; else the site (`crate::pages::site`), whose route picks the page. The
//! embed binary mounts [`EmbedApp`], the embed view alone.

use crate::embed::view::EmbedView;
use crate::hooks::initial_route;
use crate::pages::site::Site;
use lockstep_view::link::route::Route;
use yew::prelude::*;

#[component]
pub fn App() -> Html {
    match initial_route() {
        Route::Embed(embed) => html! { <EmbedView {embed} /> },
        _ => html! { <Site /> },
    }
}

/// The embed binary's app (decision 33): the page's loader starts it for an embed's address
/// only, so any other address is another page: load it again, and the loader picks its binary.
#[component]
pub fn EmbedApp() -> Html {
    match initial_route() {
        Route::Embed(embed) => html! { <EmbedView {embed} /> },
        _ => {
            crate::platform::browser::reload();
            Html::default()
        }
    }
}
