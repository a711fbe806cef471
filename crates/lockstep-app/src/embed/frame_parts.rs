//! What frames every embed, the moment and the lesson alike: the link out to the full app and
//! the notice for an embed that cannot be shown. Markup, and the page's address for the link.

use crate::hooks::use_link_to;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
struct PageLinkProps {
    /// The full app's address, without `#`.
    fragment: AttrValue,
    #[prop_or_default]
    class: Classes,
    children: Html,
}

/// A link to the full app at `fragment` of this page, in a new tab (and said so to screen
/// readers). The address comes from [`use_link_to`]: `#…` alone in the first render.
#[component]
fn PageLink(props: &PageLinkProps) -> Html {
    let href = use_link_to(&props.fragment);
    html! {
        <a class={props.class.clone()} {href} target="_blank"
            rel="noopener" data-testid="embed-open">
            { props.children.clone() }<span class="visually-hidden">{ " (opens in a new tab)" }</span>
        </a>
    }
}

/// "Open in Lockstep ↗": the full app at `fragment`, in a new tab.
pub fn open_link(fragment: String) -> Html {
    html! {
        <PageLink class="embed-open" fragment={fragment}>{ "Open in Lockstep ↗" }</PageLink>
    }
}

/// What stops the embed, said in its frame, with a way to the full app.
pub fn problem(text: &str) -> Html {
    html! {
        <div class="notice problem embed-problem" role="alert" data-testid="embed-problem">
            <p><strong>{ "This embed cannot be shown: " }</strong>{ format!("{text}.") }</p>
            <p><PageLink fragment="">{ "Open Lockstep ↗" }</PageLink></p>
        </div>
    }
}
