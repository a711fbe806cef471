//! The run's verdict in one line, beside the timeline (under it on a narrow screen), once the
//! run has reached its end; its "How it ends" opens the full outcome below the story.

use crate::state::Playground;
use lockstep_view::in_place::verdict::Tone;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The verdict line, or nothing before the run's end.
pub fn verdict_line(playground: &Playground) -> Html {
    if playground.scenario().is_none() || playground.can_step() {
        return html! {};
    }
    let verdict = playground.run().verdict();
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
        <p class={classes!("run-verdict", format!("verdict-{tone}"))} data-testid="run-verdict"
            data-tone={tone} role="status">
            <span class="verdict-words">{ glyph }{ verdict.line.clone() }</span>
            { " " }
            <button type="button" class="link" data-testid="verdict-details" onclick={open_outcome()}>
                { "How it ends ↓" }
            </button>
        </p>
    }
}

/// Opens the full outcome below the story and brings it into view.
fn open_outcome() -> Callback<MouseEvent> {
    Callback::from(|_: MouseEvent| {
        let outcome = web_sys::window()
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
