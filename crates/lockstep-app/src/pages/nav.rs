//! The site's navigation bar: one tab a page (each label is the heading of the page it opens),
//! the guided start's way back in, folded behind a menu button on a narrow screen, and the theme
//! choice. Each tab's link is the page's path, written from the page shown (`crate::link::Here`).

use crate::components::theme::ThemeChoice;
use crate::link::use_here;
use lockstep_view::link::route::Route;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SiteNavProps {
    pub at: Route,
    /// The Playground tab's link: to the moment it shows.
    pub playground_href: AttrValue,
    /// Begins the guided start over the playground.
    pub on_guided_start: Callback<()>,
}

#[component]
pub fn SiteNav(props: &SiteNavProps) -> Html {
    let menu_open = use_state(|| false);
    let here = use_here();
    let tab = |href: String, label: &'static str, testid: &'static str, current: bool| {
        html! {
            <a {href} data-testid={testid} class={classes!("tab", current.then_some("here"))}
                aria-current={current.then_some("page")}>{ label }</a>
        }
    };
    let at = &props.at;
    let toggle_menu = {
        let menu_open = menu_open.clone();
        Callback::from(move |_: MouseEvent| menu_open.set(!*menu_open))
    };
    let close_menu = {
        let menu_open = menu_open.clone();
        Callback::from(move |_: MouseEvent| menu_open.set(false))
    };
    html! {
        <nav class={classes!("site-nav", menu_open.then_some("open"))} aria-label="Sections">
            <h1 class="brand">{ "Lockstep" }</h1>
            <button type="button" class="tool nav-menu-button" data-testid="nav-menu"
                aria-expanded={menu_open.to_string()} aria-controls="nav-tabs" onclick={toggle_menu}>
                { "Menu" }
            </button>
            <div class="nav-tabs" id="nav-tabs" onclick={close_menu}>
                { tab(props.playground_href.to_string(), "Playground", "nav-playground", *at == Route::Playground) }
                { tab(here.href("learn"), "Lessons", "nav-lessons", matches!(at, Route::Lessons | Route::Lesson { .. })) }
                { tab(here.href("quiz"), "Knowledge check", "nav-quiz", matches!(at, Route::Quiz { .. })) }
                { tab(here.href("deck"), "Interview deck", "nav-deck", *at == Route::Deck) }
                { tab(here.href("guide"), "Efficiency or correctness?", "nav-guide", *at == Route::Guide) }
                { tab(here.href("lab"), "Chaos lab", "nav-lab", matches!(at, Route::Lab(_))) }
                { tab(here.href("real"), "Real runs", "nav-real", matches!(at, Route::Real { .. })) }
                { tab(here.href("sources"), "Sources", "nav-sources", *at == Route::Sources) }
                // A button, not a link: the guided start is a walk over the playground, not a
                // page of its own, and a returning visitor's address never opens it.
                <button type="button" class="tab link" data-testid="nav-guided-start"
                    onclick={props.on_guided_start.reform(|_: MouseEvent| ())}>{ "Guided start" }</button>
            </div>
            <ThemeChoice />
        </nav>
    }
}
