//! The setup bar's seed field: a whole number, or a message saying what a seed must be. On a
//! wide screen it is folded into a small "seed 42" button until asked for (a first visit needs
//! no seed); on a phone the stylesheet shows the field itself, behind the bar's "Setup" toggle.
//! Unfolding is this view's own business: the seed and its link stay the reducer's.

use crate::components::glossary::glossed;
use crate::state::Action;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SeedFieldProps {
    pub seed: u64,
    pub dispatch: Callback<Action>,
}

/// Whether the seed's input is shown on a wide screen.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fold {
    Folded,
    Unfolded,
}

#[component]
pub fn SeedField(props: &SeedFieldProps) -> Html {
    let fold = use_state(|| Fold::Folded);
    let input = use_node_ref();
    // The input unfolded by the button takes the focus, so a keyboard user types the seed next.
    {
        let input = input.clone();
        use_effect_with(*fold, move |fold| {
            if *fold == Fold::Unfolded
                && let Some(element) = input.cast::<HtmlInputElement>()
            {
                let _ = element.focus();
            }
        });
    }
    let onunfold = {
        let fold = fold.clone();
        Callback::from(move |_: MouseEvent| fold.set(Fold::Unfolded))
    };
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
    let folded = *fold == Fold::Folded;
    html! {
        <>
            if folded {
                <button type="button" class="tool seed-unfold" data-testid="seed-unfold"
                    aria-expanded="false" title="Change the seed" onclick={onunfold}>{ format!("seed {}", props.seed) }</button>
            }
            <label class={classes!("seed-field", folded.then_some("folded"))}>
                <span>{ glossed("Seed") }</span>
                // Keyed by the seed, so a rejected entry goes back to the seed in use.
                <input key={props.seed.to_string()} ref={input} type="text" inputmode="numeric"
                    data-testid="seed" value={props.seed.to_string()} onchange={onseed} size="6" />
            </label>
        </>
    }
}
