//! The page: the embed view (`crate::embed::view`) for an embed's address, which stays an embed
//! for the page's life; else the site (`crate::pages::site`), whose route picks the page.

use crate::embed::view::EmbedView;
use crate::hooks::initial_route;
use crate::pages::site::Site;
use lockstep_view::route::Route;
use yew::prelude::*;

#[component]
pub fn App() -> Html {
    match initial_route() {
        Route::Embed(embed) => html! { <EmbedView {embed} /> },
        _ => html! { <Site /> },
    }
}
