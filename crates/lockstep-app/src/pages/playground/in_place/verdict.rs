//! The run's verdict in one line, beside the timeline (under it on a narrow screen), once the
//! run has reached its end; its "How it ends" opens the full outcome below the story.

use crate::state::Playground;
use lockstep_view::in_place::verdict::{Tone, Verdict};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The verdict line, or nothing before the run's end. While comparing, the twin's verdict
/// follows, each line naming its run, so that neither reads as the other's.
pub fn verdict_line(playground: &Playground) -> Html {
    if playground.scenario().is_none() || playground.can_step() {
        return html! {};
    }
    let Some(twin) = playground.twin() else {
        return line(None, playground.run().verdict(), "run-verdict", true);
    };
    let main_label = match playground.fencing() {
        Some(fencing) => format!(
            "fencing {}",
            lockstep_view::link::fencing::fencing_word(fencing)
        ),
        None => "this run".to_owned(),
    };
    html! {
        <div class="run-verdicts">
            { line(Some(main_label), playground.run().verdict(), "run-verdict", true) }
            if twin.at_end() {
                { line(Some(twin.short_label()), twin.run.verdict(), "twin-verdict", false) }
            }
        </div>
    }
}

/// One run's verdict; `details` adds "How it ends", which opens the main run's full outcome.
fn line(label: Option<String>, verdict: &Verdict, testid: &'static str, details: bool) -> Html {
    let tone = match verdict.tone {
        Tone::Lost => "lost",
        Tone::Intact => "intact",
        Tone::Untouched => "untouched",
    };
    let glyph = match verdict.tone {
        Tone::Lost => "✗ ",
        Tone::Intact => "✓ ",
        Tone::Untouched => "",
    };
    html! {
        <p class={classes!("run-verdict", format!("verdict-{tone}"))} data-testid={testid}
            data-tone={tone} role="status">
            if let Some(label) = label {
                <span class="verdict-run">{ label }{ ": " }</span>
            }
            <span class="verdict-words">{ glyph }{ verdict.line.clone() }</span>
            if details {
                { " " }
                <button type="button" class="link" data-testid="verdict-details" onclick={open_outcome()}>
                    { "How it ends ↓" }
                </button>
            }
        </p>
    }
}

/// Opens the full outcome below the story and brings it into view.
fn open_outcome() -> Callback<MouseEvent> {
    Callback::from(|_: MouseEvent| {
        let outcome = crate::platform::browser::window()
            .and_then(|w| w.document())
            .and_then(|d| {
                d.query_selector("[data-testid=\"run-outcome\"]")
                    .ok()
                    .flatten()
            })
            .and_then(|e| e.dyn_into::<web_sys::HtmlDetailsElement>().ok());
        if let Some(outcome) = outcome {
            outcome.set_open(true);
            outcome.scroll_into_view();
        }
    })
}
