//! The setup bar, one row: which scenario, which seed, fencing on or off (a switch), compare,
//! the share menu (`share_menu.rs`: a link or embed code), and a "More" menu with what is used
//! less often — import, export, building a scenario of one's own, the shortcut sheet. A file that cannot be read, like a bad link, becomes a
//! message; the current run stays as it was.

use crate::components::Current;
use crate::components::compare_services::CompareChoice;
use crate::components::fencing_switch::FencingSwitch;
use crate::components::menu;
use crate::components::scenario_picker::ScenarioPicker;
use crate::components::share_menu::{Copied, ShareMenu, copied_view};
use crate::platform::browser;
use crate::platform::library;
use crate::state::{Action, Compare, Origin};
use gloo_file::callbacks::FileReader;
use lockstep_sim::analysis::chaos::ChaosBackend;
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::strict_json;
use lockstep_sim::scenario::types::Scenario;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// What the bar shows comes in its own props; the playground itself is read only when a menu
/// item is chosen, so a Step does not render the bar again.
#[derive(Properties, PartialEq)]
pub struct ToolbarProps {
    pub playground: Current,
    pub origin: Origin,
    pub title: AttrValue,
    pub seed: u64,
    /// `None` when the resource has no fencing to switch.
    pub fencing: Option<Fencing>,
    pub compare: Compare,
    /// The lock service the open scenario runs on.
    pub service: Option<ChaosBackend>,
    pub dispatch: Callback<Action>,
    pub on_help: Callback<()>,
    pub on_build: Callback<()>,
}

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

#[component]
pub fn Toolbar(props: &ToolbarProps) -> Html {
    let playground = &props.playground;
    let reader = use_mut_ref(|| None::<FileReader>);
    let more_menu = use_node_ref();
    // Choosing from the menu closes it, as a menu does.
    let close_menu = {
        let more_menu = more_menu.clone();
        move || menu::close(&more_menu)
    };
    let dispatch = &props.dispatch;
    let copied = use_state(|| None::<Copied>);
    let on_copied = {
        let copied = copied.clone();
        Callback::from(move |made: Copied| copied.set(Some(made)))
    };

    let onseed = {
        let dispatch = dispatch.clone();
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
    let fencing = props.fencing;
    let oncompare = {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::ToggleCompare))
    };
    let onimport = {
        let dispatch = dispatch.clone();
        let reader = reader.clone();
        let close_menu = close_menu.clone();
        Callback::from(move |event: Event| {
            close_menu();
            let input: HtmlInputElement = event.target_unchecked_into();
            let Some(file) = input.files().and_then(|files| files.get(0)) else {
                return;
            };
            let name = file.name();
            let dispatch = dispatch.clone();
            // Bytes, not text: the browser would quietly replace bytes that are not UTF-8, and
            // the file's reader should hear where they are instead.
            let task =
                gloo_file::callbacks::read_as_bytes(&gloo_file::File::from(file), move |bytes| {
                    let text = bytes.map_err(|e| e.to_string()).and_then(|bytes| {
                        strict_json::text(&bytes)
                            .map(str::to_owned)
                            .map_err(|e| e.to_string())
                    });
                    match text {
                        Ok(text) => library::import(text, dispatch.clone()),
                        Err(e) => {
                            dispatch.emit(Action::Report(format!("{name} cannot be read: {e}")))
                        }
                    }
                });
            *reader.borrow_mut() = Some(task);
            input.set_value("");
        })
    };
    // Exports are computed when chosen, not on every render: a long trace's export is large.
    let export_scenario = {
        let dispatch = dispatch.clone();
        let playground = playground.clone();
        let close_menu = close_menu.clone();
        Callback::from(move |_: MouseEvent| {
            close_menu();
            if let Some(file) = &playground.scenario_file() {
                download_scenario(&dispatch, file);
            }
        })
    };
    // A comparison with another service: the twin's own scenario file, which replays its run
    // with `lockstep-cli run`.
    let export_twin = {
        let dispatch = dispatch.clone();
        let playground = playground.clone();
        let close_menu = close_menu.clone();
        Callback::from(move |_: MouseEvent| {
            close_menu();
            if let Some(twin) = playground.twin().and_then(|t| t.against()) {
                download_scenario(&dispatch, &twin.scenario_b);
            }
        })
    };
    let export_trace = {
        let dispatch = dispatch.clone();
        let playground = playground.clone();
        let close_menu = close_menu.clone();
        Callback::from(move |_: MouseEvent| {
            close_menu();
            let export = playground.trace_export();
            let text = lockstep_sim::scenario::pretty::to_string(&export);
            report(
                &dispatch,
                browser::download(
                    &format!("{}-trace.json", export.scenario),
                    "application/json",
                    &text,
                ),
            );
        })
    };
    let export_svg = {
        let dispatch = dispatch.clone();
        let playground = playground.clone();
        let close_menu = close_menu.clone();
        Callback::from(move |_: MouseEvent| {
            close_menu();
            let id = playground.scenario_id().to_owned();
            let svg = web_sys::window()
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
                        &dispatch,
                        browser::download(
                            &format!("{id}-timeline.svg"),
                            "image/svg+xml",
                            &standalone,
                        ),
                    );
                }
                None => dispatch.emit(Action::Report("There is no timeline to export.".to_owned())),
            }
        })
    };
    let current = match &props.origin {
        Origin::BuiltIn(id) => Some(AttrValue::Static(id)),
        Origin::Custom => None,
    };
    let on_help = {
        let close_menu = close_menu.clone();
        props.on_help.reform(move |_: MouseEvent| close_menu())
    };
    let on_build = props.on_build.reform(move |_: MouseEvent| close_menu());
    html! {
        <div class="toolbar" role="toolbar" aria-label="Scenario">
            <ScenarioPicker {current} custom_title={props.title.clone()} dispatch={dispatch.clone()} />
            <label class="seed-field">
                <span>{ "Seed" }</span>
                // Keyed by the seed, so a rejected entry goes back to the seed in use.
                <input key={props.seed.to_string()} type="text" inputmode="numeric" data-testid="seed"
                    value={props.seed.to_string()} onchange={onseed} size="6" />
            </label>
            if let Some(fencing) = fencing {
                <FencingSwitch {fencing} dispatch={dispatch.clone()} testid="fencing-toggle" />
                <button type="button" class="tool toggle" data-testid="compare-toggle"
                    aria-pressed={(props.compare == Compare::Fencing).to_string()} onclick={oncompare}>
                    { "Compare" }<span class="wide-only">{ " fencing on/off" }</span>
                </button>
            }
            <CompareChoice compare={props.compare} service={props.service}
                fencing={fencing.is_some()} dispatch={dispatch.clone()} />
            <ShareMenu playground={playground.clone()} on_copied={on_copied} />
            <details class="more" ref={more_menu.clone()} onkeydown={menu::escape_closes(&more_menu)}>
                <summary class="tool" data-testid="more-menu">{ "More" }</summary>
                <div class="more-menu">
                    <label class="tool file">
                        { "Import a scenario or trace…" }
                        <input type="file" accept=".json,application/json" data-testid="import" onchange={onimport} />
                    </label>
                    <button type="button" class="tool" data-testid="export-scenario" onclick={export_scenario}>{ "Export the scenario (JSON)" }</button>
                    if let Compare::Service(service) = props.compare {
                        <button type="button" class="tool" data-testid="export-twin-scenario" onclick={export_twin}>
                            { format!("Export the twin's scenario on {} (JSON)", service.label()) }</button>
                    }
                    <button type="button" class="tool" data-testid="export-trace" onclick={export_trace}>{ "Export the trace (JSON)" }</button>
                    <button type="button" class="tool" data-testid="export-svg" onclick={export_svg}>{ "Export the timeline (SVG)" }</button>
                    <button type="button" class="tool" data-testid="build-scenario" onclick={on_build}>{ "Build your own scenario…" }</button>
                    <button type="button" class="tool" data-testid="help" onclick={on_help} title="Keyboard shortcuts (?)">{ "Keyboard shortcuts" }</button>
                </div>
            </details>
            { copied.as_ref().map(copied_view) }
        </div>
    }
}
