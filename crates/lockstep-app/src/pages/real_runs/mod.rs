//! The real-runs page (`#real`, `#real=<recording>`): the scenarios played against real lock
//! services on one machine (recorded by `cargo xtask real --record`), listed in catalogue order
//! by title with what each shows, each beside its simulation, and a history of one's own system
//! loaded from disk and judged the same way.
//!
//! It holds what is shown and loads (`load.rs`); the two timelines, the transport and the
//! verdicts are `view.rs`'s. A file that cannot be read is said where the loader is, and what
//! was shown stays.

pub mod load;
pub mod view;

use crate::components::Shared;
use crate::link::use_here;
use crate::platform::{browser, text_file};
use gloo_file::callbacks::FileReader;
use lockstep_sim::scenario::catalogue;
use lockstep_view::recorded::catalogue::RECORDINGS;
use lockstep_view::recorded::side_by_side::SideBySide;
use view::RealRunView;
use wasm_bindgen_futures::spawn_local;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct RealRunsProps {
    /// The recording the address names, if any.
    pub recording: Option<String>,
}

/// What the page shows below its list.
#[derive(Clone, PartialEq)]
enum Shown {
    Nothing,
    Loading(String),
    Failed(String),
    /// A run to show, with the id of the shipped recording it is (none for one's own).
    Ready(Shared<SideBySide>, Option<String>),
}

#[component]
pub fn RealRunsPage(props: &RealRunsProps) -> Html {
    let shown = use_state(|| Shown::Nothing);
    let here = use_here();
    let problem = use_state(|| None::<String>);
    {
        let shown = shown.clone();
        use_effect_with(props.recording.clone(), move |recording| {
            if let Some(id) = recording.clone() {
                shown.set(Shown::Loading(format!("Loading the recorded run {id}…")));
                spawn_local(async move {
                    shown.set(match load::recording(&id).await {
                        Ok(both) => Shown::Ready(Shared(both), Some(id)),
                        Err(why) => Shown::Failed(why),
                    });
                });
            }
        });
    }
    // A run just shown stands below the list (far below on a phone): its title comes to the
    // window's top, unless it is in the window already.
    use_effect_with((*shown).clone(), |shown| {
        if matches!(shown, Shown::Ready(..)) {
            reveal_title();
        }
    });
    let onchange = use_own_file(&shown, &problem);
    html! {
        <section class="page real-runs" data-testid="real-runs">
            <h2>{ "Real runs" }</h2>
            <p class="lead">{ "Every other page shows a model. Here the same scenarios were played by real clients \
                against real servers on one machine — the article's lock row in PostgreSQL, one Redis with SET NX PX, \
                a Redis primary and its replica, Redlock on five Redis nodes, a three-member etcd cluster — writing \
                to a real PostgreSQL register, and recorded: each request when it was sent and when its answer \
                came, and each write when the register's own log says it applied it. Each recording is drawn beside the simulation of the same scenario, stepped by one clock, and \
                judged by the same invariants." }</p>
            <ul class="recordings" data-testid="recordings">
                { for RECORDINGS.iter().map(|r| {
                    let id = r.id();
                    let current = props.recording.as_deref() == Some(id.as_str());
                    let title = catalogue::entry(r.scenario).map_or(r.scenario, |e| e.title);
                    html! {
                        <li data-testid="recording" data-recording={id.clone()}>
                            <a href={here.href(&format!("real={id}"))} aria-current={current.then_some("page")}
                                data-testid={format!("recording-{id}")}>{ title }</a>
                            <span class="recording-service">{ format!(" · on {}", r.label) }</span>
                            <p class="recording-shows" data-testid="recording-shows">{ r.shows }</p>
                        </li>
                    }
                }) }
            </ul>
            <div class="own-history">
                <label>{ "Load a recorded history of your own system: " }
                    <input type="file" accept=".json,application/json" data-testid="load-history" {onchange} />
                </label>
                { format_help() }
            </div>
            if let Some(problem) = &*problem {
                <p class="notice problem" role="alert" data-testid="history-problem">{ problem.clone() }</p>
            }
            { shown_view(&shown) }
        </section>
    }
}

/// Scrolls the shown run's title to the window's top (8 px below it) if it is not in the window.
fn reveal_title() {
    let Some(window) = browser::window() else {
        return;
    };
    let title = window.document().and_then(|d| {
        d.query_selector("[data-testid=\"real-title\"]")
            .ok()
            .flatten()
    });
    let (_, height) = browser::window_size();
    if let Some((_, top, bottom)) = title.as_ref().and_then(browser::box_of)
        && (top < 0.0 || bottom > height)
    {
        window.scroll_by_with_x_and_y(0.0, (top - 8.0).floor());
    }
}

/// The recorded-history format in brief, with the documented example: enough to convert a log.
fn format_help() -> Html {
    html! {
        <details class="format-help" data-testid="format-help">
            <summary>{ "The format, to convert your own logs" }</summary>
            <p>{ "One JSON object: \"history\": 1, a title, who recorded it (by, on, against), the lock service's and the \
                resource's names, the register's initial value, whether the resource fences (on, off, unknown), and the \
                operations: each with its client, op (acquire, read, write, release, renew), at_ms (sent) and answered_ms (its \
                answer came; left out if none did), and the answer — granted with token and ttl_ms, a read's value, a \
                write's token, value and accepted (and applied_ms, where the resource's own log says when it applied a \
                write, even one whose client never heard), a release's released, a renewal's renewed. Faults (pause \
                with for_ms, crash, restart, failover, clock_jump with by_ms, cut with peer and direction) are optional; quorum says how many servers' grants \
                make the lock (Redlock: 3 of 5). The same file goes to lockstep-cli check-trace. \
                Example:" }</p>
            <pre>{ EXAMPLE }</pre>
        </details>
    }
}

/// The documented example (`docs/history-format.md`).
const EXAMPLE: &str = include_str!("../../../../../docs/examples/history-gc-pause.json");

fn shown_view(shown: &Shown) -> Html {
    match shown {
        Shown::Nothing => html! {
            <p class="muted">{ "Choose a recording above, or load a history." }</p>
        },
        Shown::Loading(what) => {
            html! { <p class="loading-line" role="status">{ what.clone() }</p> }
        }
        Shown::Failed(why) => html! {
            <p class="notice problem" role="alert" data-testid="real-failed">{ why.clone() }</p>
        },
        Shown::Ready(both, recording) => {
            html! { <RealRunView both={both.clone()} recording={recording.clone()} /> }
        }
    }
}

/// The file input's handler: reads the chosen file and shows it once it is judged; a file that
/// cannot be read is said in `problem`, and what was shown stays.
#[hook]
fn use_own_file(
    shown: &UseStateHandle<Shown>,
    problem: &UseStateHandle<Option<String>>,
) -> Callback<Event> {
    let reader = use_mut_ref(|| None::<FileReader>);
    let (shown, problem) = (shown.clone(), problem.clone());
    Callback::from(move |event: Event| {
        let input: HtmlInputElement = event.target_unchecked_into();
        let Some(file) = input.files().and_then(|files| files.get(0)) else {
            return;
        };
        let name = file.name();
        let (shown, problem) = (shown.clone(), problem.clone());
        let task = text_file::read(file, move |text| {
            spawn_local(async move {
                let judged = match text {
                    Ok(text) => load::own(&name, &text).await,
                    Err(e) => Err(format!("{name} cannot be read: {e}")),
                };
                match judged {
                    Ok(both) => {
                        problem.set(None);
                        shown.set(Shown::Ready(Shared(both), None));
                    }
                    Err(why) => problem.set(Some(why)),
                }
            });
        });
        *reader.borrow_mut() = Some(task);
        input.set_value("");
    })
}
