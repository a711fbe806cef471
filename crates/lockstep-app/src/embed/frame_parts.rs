//! What frames every embed, the moment and the lesson alike: the link out to the full app and
//! the notice for an embed that cannot be shown. Markup only.

use crate::platform::browser;
use yew::prelude::*;

/// "Open in Lockstep ↗": the full app at `address`, in a new tab (and said so to screen
/// readers).
pub fn open_link(address: String) -> Html {
    html! {
        <a class="embed-open" href={address} target="_blank" rel="noopener" data-testid="embed-open">
            { "Open in Lockstep ↗" }<span class="visually-hidden">{ " (opens in a new tab)" }</span>
        </a>
    }
}

/// What stops the embed, said in its frame, with a way to the full app.
pub fn problem(text: &str) -> Html {
    html! {
        <div class="notice problem embed-problem" role="alert" data-testid="embed-problem">
            <p><strong>{ "This embed cannot be shown: " }</strong>{ format!("{text}.") }</p>
            <p><a href={browser::link_with("")} target="_blank" rel="noopener" data-testid="embed-open">
                { "Open Lockstep ↗" }<span class="visually-hidden">{ " (opens in a new tab)" }</span></a></p>
        </div>
    }
}
