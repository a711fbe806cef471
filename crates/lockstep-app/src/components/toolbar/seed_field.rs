//! The setup bar's seed field: a whole number, or a message saying what a seed must be.

use crate::components::glossary::glossed;
use crate::state::Action;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SeedFieldProps {
    pub seed: u64,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn SeedField(props: &SeedFieldProps) -> Html {
    let onseed = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            match input.value().trim().parse::<u64>() {
                Ok(seed) => dispatch.emit(Action::SetSeed(seed)),
                Err(_) => dispatch.emit(Action::Report(format!(
                    "The seed must be a whole number from 0 to {}; `{}` is not.",
                    u64::MAX,
                    input.value()
                ))),
            }
        })
    };
    html! {
        <label class="seed-field">
            <span>{ glossed("Seed") }</span>
            // Keyed by the seed, so a rejected entry goes back to the seed in use.
            <input key={props.seed.to_string()} type="text" inputmode="numeric" data-testid="seed"
                value={props.seed.to_string()} onchange={onseed} size="6" />
        </label>
    }
}
