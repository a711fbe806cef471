//! What a lesson step says: its open prediction (the question and its choices), or — once
//! answered — the verdict first ("Right" / "Not quite: …", with why), then its text (one idea),
//! its asides folded under "Go deeper", and its sources.

use crate::components::glossary::glossed;
use crate::link::Here;
use crate::pages::sources::citation_list;
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
/// (`None`: "just show me"); its links are written from `here`.
pub fn step_body(
    step: &Step,
    reveal: Reveal,
    showing: bool,
    choose: &dyn Fn(Option<usize>) -> Callback<MouseEvent>,
    here: &Here,
) -> Html {
    match (&step.predict, reveal, showing) {
        (Some(predict), Reveal::Asking, false) => prediction(predict, choose),
        _ => html! {
            <>
                { for step.predict.as_ref().and_then(|predict| verdict(predict, reveal)) }
                <p class="step-text" data-testid="lesson-text" aria-live="polite">{ glossed(&step.text) }</p>
                if let Some(deeper) = &step.deeper {
                    <details class="go-deeper" data-testid="go-deeper">
                        <summary>{ "Go deeper" }</summary>
                        <p>{ glossed(deeper) }</p>
                    </details>
                }
                if let Some(link) = &step.real_run {
                    <p class="real-run-aside" data-testid="lesson-real-run">
                        <a href={here.href(&format!("real={}", link.id))}>{ link.text.clone() }</a>
                    </p>
                }
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

/// Right or not (or the answer, to one who asked to be shown), then why: the verdict leads.
fn verdict(predict: &Predict, reveal: Reveal) -> Option<Html> {
    let answer = predict
        .choices
        .get(predict.answer)
        .map_or("", |c| c.text.as_str());
    let (class, correct, words) = match reveal {
        Reveal::Shown(Some(chosen)) if chosen == predict.answer => {
            ("right", "true", "✓ Right.".to_owned())
        }
        Reveal::Shown(Some(_)) => (
            "wrong",
            "false",
            format!("✗ Not quite: the answer is \u{201c}{answer}\u{201d}"),
        ),
        Reveal::Shown(None) => (
            "",
            "skipped",
            format!("The answer: \u{201c}{answer}\u{201d}"),
        ),
        Reveal::Asking => return None,
    };
    Some(html! {
        <div class={classes!("predict-result", (!class.is_empty()).then_some(class))}
            data-testid="predict-result" data-correct={correct}>
            <p class="verdict" data-testid="predict-verdict"><strong>{ words }</strong></p>
            <p class="why">{ predict.why.clone() }</p>
        </div>
    })
}
