//! What a lesson step says: its open prediction (the question, its choices, and "Just show me"),
//! or — once answered — the verdict first ("Right" / "Not quite: …", with why), then its text (one
//! idea), its asides folded under "Go deeper", and its sources.
//!
//! "Just show me" is a native fold holding the answer, why, and the step's text, so that a page
//! read without JavaScript (the build's, decision 43; a search engine's) still reads the step.
//! With JavaScript, opening it is the answer "just show me": the page shows what any answer
//! shows. It is closed until opened, in the build's page as in the app's, so it spoils nothing.

use crate::components::glossary::glossed;
use crate::link::Here;
use crate::pages::sources::citation_list;
use lockstep_view::content::{Predict, Step};
use wasm_bindgen::JsCast;
use web_sys::HtmlDetailsElement;
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
    choose: &dyn Fn(Option<usize>) -> Callback<()>,
    here: &Here,
) -> Html {
    match (&step.predict, reveal, showing) {
        (Some(predict), Reveal::Asking, false) => prediction(predict, &step.text, choose),
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

/// The open question: the next event plays once the user has chosen, or asked to be shown.
fn prediction(
    predict: &Predict,
    text: &str,
    choose: &dyn Fn(Option<usize>) -> Callback<()>,
) -> Html {
    html! {
        // The question is a heading above its choices, inside the frame: a fieldset's legend
        // would sit on the border, cut by it when it runs to two lines.
        <section class="predict" data-testid="predict" role="group" aria-labelledby="predict-question">
            <h3 id="predict-question" class="predict-question" data-testid="predict-question">{ predict.question.clone() }</h3>
            <p class="muted">{ "Predict first: the next event plays once you have chosen." }</p>
            <div class="predict-choices">
                { for predict.choices.iter().enumerate().map(|(i, c)| html! {
                    <button type="button" class="act" data-testid="predict-choice" data-index={i.to_string()}
                        onclick={choose(Some(i)).reform(|_: MouseEvent| ())}>{ c.text.clone() }</button>
                }) }
            </div>
            { just_show(predict, text, choose(None)) }
        </section>
    }
}

/// "Just show me", folded over what it shows. With JavaScript a click on it answers at once,
/// without opening the fold (the page shows the answer as any answer does); the fold opened
/// otherwise (find in page opens a fold that holds what it found) answers too. The summary
/// carries the `data-testid`, so a click on it before the app runs is kept and given to the app
/// (assets/boot.js) rather than opening the fold the app then draws over closed.
fn just_show(predict: &Predict, text: &str, show: Callback<()>) -> Html {
    let onclick = show.reform(|event: MouseEvent| event.prevent_default());
    let ontoggle = Callback::from(move |event: Event| {
        let opened = event
            .target()
            .and_then(|t| t.dyn_into::<HtmlDetailsElement>().ok())
            .is_some_and(|details| details.open());
        if opened {
            show.emit(());
        }
    });
    html! {
        <details class="predict-fold" data-testid="predict-fold" {ontoggle}>
            <summary class="link" data-testid="predict-skip" {onclick}>{ "Just show me" }</summary>
            <p><strong>{ the_answer(predict) }</strong></p>
            <p class="why">{ predict.why.clone() }</p>
            <p class="step-text">{ glossed(text) }</p>
        </details>
    }
}

/// The right choice's words.
fn answer(predict: &Predict) -> &str {
    predict
        .choices
        .get(predict.answer)
        .map_or("", |c| c.text.as_str())
}

/// What "just show me" says first: the answer.
fn the_answer(predict: &Predict) -> String {
    format!("The answer: \u{201c}{}\u{201d}", answer(predict))
}

/// Right or not (or the answer, to one who asked to be shown), then why: the verdict leads.
fn verdict(predict: &Predict, reveal: Reveal) -> Option<Html> {
    let (class, correct, words) = match reveal {
        Reveal::Shown(Some(chosen)) if chosen == predict.answer => {
            ("right", "true", "✓ Right.".to_owned())
        }
        Reveal::Shown(Some(_)) => (
            "wrong",
            "false",
            format!(
                "✗ Not quite: the answer is \u{201c}{}\u{201d}",
                answer(predict)
            ),
        ),
        Reveal::Shown(None) => ("", "skipped", the_answer(predict)),
        Reveal::Asking => return None,
    };
    Some(html! {
        <div class={classes!("predict-result", (!class.is_empty()).then_some(class))}
            data-testid="predict-result" data-correct={correct}>
            <p class="verdict" data-testid="predict-verdict" tabindex="-1"><strong>{ words }</strong></p>
            <p class="why">{ predict.why.clone() }</p>
        </div>
    })
}
