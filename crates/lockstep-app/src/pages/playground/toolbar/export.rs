//! The "More" menu's exports: the scenario, a comparison's twin, the trace and the timeline,
//! each downloaded as a file. Each reads the playground when chosen, not on every render (a
//! long trace's export is large); a download that fails becomes a message, never a panic.

use crate::platform::browser;
use crate::state::{Action, Playground};
use lockstep_sim::scenario::types::Scenario;
use yew::prelude::*;

/// The styles an exported SVG needs to stand alone (the page's own use CSS variables).
const EXPORT_STYLE: &str = "<style>\
text{font:11px system-ui,sans-serif;fill:#1b1f25}\
.lane{fill:#fff}.lane.odd{fill:#f5f6f8}.tick line{stroke:#d9dde3}\
.bar rect{stroke-width:1.5}.lease rect{fill-opacity:.85}.belief rect{fill:none;stroke-width:2}\
.hatch-line{stroke:#5b6470}.overhang-line{stroke:#b84700}.crash rect{fill:#5b6470;fill-opacity:.4}\
.hue-0 rect{fill:#0072b2;stroke:#0072b2}.hue-1 rect{fill:#e69f00;stroke:#e69f00}\
.hue-2 rect{fill:#009e73;stroke:#009e73}.hue-3 rect{fill:#cc79a7;stroke:#cc79a7}\
.hue-4 rect{fill:#56b4e9;stroke:#56b4e9}.hue-5 rect{fill:#d55e00;stroke:#d55e00}\
.hue-6 rect{fill:#f0e442;stroke:#f0e442}.hue-7 rect{fill:#000;stroke:#000}\
.belief rect{fill:none}.message .shaft{stroke:#5b6470;stroke-width:1.5}.message .hit{stroke:none}\
.message-in_flight .shaft{stroke-dasharray:5 4}.arrow-head{fill:#5b6470}\
.mark-write_accepted .disc{fill:#007a59}.square{fill:#b84700}.glyph{fill:#fff;font-weight:700}\
.band rect{fill:#d55e00;fill-opacity:.15}.band.history rect{fill-opacity:.6}.band-label{fill:#b84700;font-weight:600}\
.now line{stroke:#0072b2;stroke-width:2}.zigzag{fill:none;stroke:#1b1f25;stroke-width:1.5}\
.intervention{fill:#e69f00}</style>";

/// A download that failed becomes a message.
fn report(dispatch: &Callback<Action>, result: Result<(), String>) {
    if let Err(e) = result {
        dispatch.emit(Action::Report(format!("The download failed: {e}")));
    }
}

/// Downloads a scenario as its file, `<id>.json` (it replays with `lockstep-cli run`).
fn download_scenario(dispatch: &Callback<Action>, file: &Scenario) {
    report(
        dispatch,
        browser::download(
            &format!("{}.json", file.id),
            "application/json",
            &file.to_json(),
        ),
    );
}

/// The scenario as its file.
pub fn scenario(playground: &Playground, dispatch: &Callback<Action>) {
    if let Some(file) = &playground.scenario_file() {
        download_scenario(dispatch, file);
    }
}

/// A comparison with another service: the twin's own scenario file, which replays its run
/// with `lockstep-cli run`.
pub fn twin(playground: &Playground, dispatch: &Callback<Action>) {
    if let Some(twin) = playground.twin().and_then(|t| t.against()) {
        download_scenario(dispatch, &twin.scenario_b);
    }
}

/// The trace, as `lockstep-cli` writes it.
pub fn trace(playground: &Playground, dispatch: &Callback<Action>) {
    let export = playground.trace_export();
    let text = lockstep_sim::scenario::pretty::to_string(&export);
    report(
        dispatch,
        browser::download(
            &format!("{}-trace.json", export.scenario),
            "application/json",
            &text,
        ),
    );
}

/// The main timeline's SVG as drawn, with the styles it needs to stand alone.
pub fn svg(playground: &Playground, dispatch: &Callback<Action>) {
    let id = playground.scenario_id().to_owned();
    let svg = crate::platform::browser::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector("[data-testid=timeline-main] svg")
                .ok()
                .flatten()
        })
        .map(|e| e.outer_html());
    match svg {
        Some(svg) => {
            let standalone = svg.replacen(
                '>',
                &format!(" xmlns=\"http://www.w3.org/2000/svg\">{EXPORT_STYLE}"),
                1,
            );
            report(
                dispatch,
                browser::download(&format!("{id}-timeline.svg"), "image/svg+xml", &standalone),
            );
        }
        None => dispatch.emit(Action::Report("There is no timeline to export.".to_owned())),
    }
}
