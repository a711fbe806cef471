//! What a lesson step says: its open prediction (the question and its choices), or its text,
//! with the verdict on the prediction once answered, and its sources.

use crate::components::glossary::glossed;
use crate::components::sources::citation_list;
use lockstep_view::content::{Predict, Step};
use yew::prelude::*;

/// Where the player stands on a step that asks for a prediction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reveal {
    Asking,
    /// Shown, after the user chose this answer (`None`: they asked to be shown).
    Shown(Option<usize>),
}

/// The step's body; `choose` makes the callback that answers the prediction with a choice
/// (`None`: "just show me").
pub fn step_body(
    step: &Step,
    reveal: Reveal,
    showing: bool,
    choose: &dyn Fn(Option<usize>) -> Callback<MouseEvent>,
) -> Html {
    match (&step.predict, reveal, showing) {
        (Some(predict), Reveal::Asking, false) => prediction(predict, choose),
        _ => html! {
            <>
                <p class="step-text" data-testid="lesson-text" aria-live="polite">{ glossed(&step.text) }</p>
                { for step.predict.as_ref().and_then(|predict| verdict(predict, reveal)) }
                { citation_list(&step.sources) }
            </>
        },
    }
}

/// The open question: the next event plays once the user has chosen.
fn prediction(predict: &Predict, choose: &dyn Fn(Option<usize>) -> Callback<MouseEvent>) -> Html {
    html! {
        <fieldset class="predict" data-testid="predict">
            <legend>{ predict.question.clone() }</legend>
            <p class="muted">{ "Predict first: the next event plays once you have chosen." }</p>
            <div class="predict-choices">
                { for predict.choices.iter().enumerate().map(|(i, c)| html! {
                    <button type="button" class="act" data-testid="predict-choice" data-index={i.to_string()}
                        onclick={choose(Some(i))}>{ c.text.clone() }</button>
                }) }
            </div>
            <button type="button" class="link" data-testid="predict-skip" onclick={choose(None)}>{ "Just show me" }</button>
        </fieldset>
    }
}

/// Right or not (or the answer, to one who asked to be shown), and why.
fn verdict(predict: &Predict, reveal: Reveal) -> Option<Html> {
    match reveal {
        Reveal::Shown(Some(chosen)) => {
            let right = chosen == predict.answer;
            Some(html! {
                <p class={classes!("predict-result", if right { "right" } else { "wrong" })}
                    data-testid="predict-result" data-correct={right.to_string()}>
                    <strong>{ if right { "✓ Right. " } else { "✗ Not quite. " } }</strong>
                    { predict.why.clone() }
                </p>
            })
        }
        Reveal::Shown(None) => Some(html! {
            <p class="predict-result" data-testid="predict-result" data-correct="skipped">
                <strong>{ format!("The answer: {}. ", predict.choices.get(predict.answer).map_or("", |c| c.text.as_str())) }</strong>
                { predict.why.clone() }
            </p>
        }),
        Reveal::Asking => None,
    }
}
