//! The "edited" chip beside the scenario's title: shown while the user's interventions change
//! the run; pressed, it offers the original run back (`Action::ResetToOriginal`), which drops
//! them. Rewind, in the transport, keeps them.

use crate::state::Action;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EditedChipProps {
    /// How many interventions the user made.
    pub count: usize,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn EditedChip(props: &EditedChipProps) -> Html {
    let offered = use_state(|| false);
    if props.count == 0 {
        return html! {};
    }
    let toggle = {
        let offered = offered.clone();
        Callback::from(move |_: MouseEvent| offered.set(!*offered))
    };
    let keep = {
        let offered = offered.clone();
        Callback::from(move |_: MouseEvent| offered.set(false))
    };
    let reset = {
        let offered = offered.clone();
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            offered.set(false);
            dispatch.emit(Action::ResetToOriginal);
        })
    };
    let changes = match props.count {
        1 => "your intervention".to_owned(),
        n => format!("your {n} interventions"),
    };
    html! {
        <span class="edited">
            <button type="button" class="edited-chip" data-testid="edited-chip"
                aria-expanded={offered.to_string()} onclick={toggle}
                title="Your interventions changed this run">
                { format!("edited · {}", props.count) }
            </button>
            if *offered {
                <span class="reset-offer" data-testid="reset-offer" role="group" aria-label="Reset the run">
                    { format!("The run shown has {changes}. ") }
                    <button type="button" class="tool" data-testid="reset-original" onclick={reset}>
                        { "Reset to the original run" }
                    </button>
                    <button type="button" class="link" data-testid="keep-edits" onclick={keep}>{ "Keep" }</button>
                </span>
            }
        </span>
    }
}
