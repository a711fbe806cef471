//! The banner a link's problem is said in, one look for every page a link opens: the playground
//! (a share link read in part, or not at all) and the guided pages (a lesson, a step or a
//! question that does not exist). It says what was wrong and what is shown instead.
//!
//! What this module must not do: decide what a link means or what the page shows beside it.

use yew::prelude::*;

/// The banner saying `text`, with a Dismiss button when the page can go on without it.
pub fn link_problem(text: &str, dismiss: Option<Callback<MouseEvent>>) -> Html {
    html! {
        <div class="notice problem" role="alert" data-testid="notice" data-notice="link">
            <span>{ text.to_owned() }</span>
            if let Some(dismiss) = dismiss {
                <button type="button" class="link" onclick={dismiss} aria-label="Dismiss this message">{ "Dismiss" }</button>
            }
        </div>
    }
}
