//! The chaos lab's results: how far the run is ([`LabProgress`]); the share of runs that broke
//! each invariant, one group per lock service × fencing run this visit ([`ShareChart`]); when in
//! the run the first violation came ([`Histogram`]); and the violating seeds, each a link that
//! opens the playground at the first violation of the invariant chosen ([`ViolatingSeeds`]).
//! Every number is counted from the runs.

use crate::components::chaos_lab::thousands;
use crate::components::chaos_lab_form::backend_label;
use crate::lab_engine::{Broken, ChaosReport, ChaosSettings};
use crate::lab_runner::{ChartRow, Status};
use crate::lab_schedule::{LabRun, Violation};
use crate::link::fencing_word;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use lockstep_sim::invariant::Invariant;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LabProgressProps {
    pub run: Option<LabRun>,
    pub status: Status,
    /// The workers are still loading.
    pub loading: bool,
}

#[component]
pub fn LabProgress(props: &LabProgressProps) -> Html {
    let Some(run) = &props.run else {
        return html! {
            <p class="muted lab-status" data-testid="lab-status">{ "Nothing run yet. The first run loads the worker (the simulator again, for the background)." }</p>
        };
    };
    let done = run.done();
    let total = run.spec.runs.0;
    let broke = run.report.violating_seeds.len() as u64;
    let state = match &props.status {
        Status::Idle => String::new(),
        Status::Running if done == 0 && props.loading => "Loading the worker…".to_owned(),
        Status::Running => "Running…".to_owned(),
        Status::Stopped => "Stopped.".to_owned(),
        Status::Finished => "Done.".to_owned(),
        Status::Failed(why) => format!("The run failed: {why}."),
    };
    let failed = matches!(props.status, Status::Failed(_));
    html! {
        <div class="lab-progress" data-testid="lab-progress" data-status={props.status.word()}
            data-done={done.to_string()} data-total={total.to_string()}>
            <progress max={total.to_string()} value={done.to_string()} aria-label="Seeds run"></progress>
            <p class={classes!("lab-status", failed.then_some("problem"))} role="status" data-testid="lab-status">
                { format!("{state} {} of {} runs, {} broke an invariant", thousands(done), thousands(total), thousands(broke)) }
            </p>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ShareChartProps {
    pub rows: Vec<ChartRow>,
}

fn count(report: &ChaosReport, invariant: Invariant) -> u64 {
    report
        .broke
        .iter()
        .find(|(i, _)| *i == invariant)
        .map_or(0, |(_, n)| *n)
}

/// `12.5%`, with one decimal; `0%` for none.
fn percent(part: u64, whole: u64) -> String {
    if part == 0 || whole == 0 {
        return "0%".to_owned();
    }
    format!("{:.1}%", part as f64 * 100.0 / whole as f64)
}

fn settings_words(settings: &ChaosSettings) -> String {
    format!(
        "{}, fencing {}, {} clients",
        backend_label(settings.backend),
        fencing_word(settings.fencing),
        settings.clients.0
    )
}

#[component]
pub fn ShareChart(props: &ShareChartProps) -> Html {
    // The invariants some run broke; the others are named once, under the chart.
    let shown: Vec<Invariant> = Invariant::ALL
        .into_iter()
        .filter(|i| props.rows.iter().any(|r| count(&r.run.report, *i) > 0))
        .collect();
    let never: Vec<&str> = Invariant::ALL
        .into_iter()
        .filter(|i| !shown.contains(i))
        .map(Invariant::statement)
        .collect();
    html! {
        <figure class="lab-chart" data-testid="lab-chart">
            <figcaption>{ "Share of runs that broke each invariant" }</figcaption>
            { for props.rows.iter().map(|row| {
                let report = &row.run.report;
                html! {
                    <div class="lab-chart-group" data-testid="lab-chart-group"
                        data-backend={report.settings.backend.id()} data-fencing={fencing_word(report.settings.fencing)}
                        data-runs={report.runs.to_string()}>
                        <p class="lab-chart-title">
                            <strong>{ settings_words(&report.settings) }</strong>
                            { format!(" · {} runs{}", thousands(report.runs), if row.live { " so far" } else { "" }) }
                        </p>
                        if shown.is_empty() {
                            <p class="muted">{ "No run broke any invariant." }</p>
                        }
                        <ul class="lab-bars">
                            { for shown.iter().map(|i| {
                                let n = count(report, *i);
                                let share = if report.runs == 0 { 0.0 } else { n as f64 * 100.0 / report.runs as f64 };
                                html! {
                                    <li class="lab-bar" data-testid="lab-bar" data-invariant={i.id()} data-count={n.to_string()}>
                                        <span class="lab-bar-label">{ i.statement() }</span>
                                        <span class="lab-bar-track" aria-hidden="true">
                                            <span class="lab-bar-fill" style={format!("width: {share:.2}%")}></span>
                                        </span>
                                        <span class="lab-bar-value">{ format!("{} ({} of {})", percent(n, report.runs), thousands(n), thousands(report.runs)) }</span>
                                    </li>
                                }
                            }) }
                        </ul>
                    </div>
                }
            }) }
            if !never.is_empty() {
                <p class="muted lab-never" data-testid="lab-never">{ format!("Broken in no run: {}.", never.join("; ")) }</p>
            }
        </figure>
    }
}

#[derive(Properties, PartialEq)]
pub struct HistogramProps {
    pub report: ChaosReport,
}

/// Seconds, as `7.5 s` or `15 s`.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1_000) {
        format!("{} s", ms / 1_000)
    } else {
        format!("{:.1} s", ms as f64 / 1_000.0)
    }
}

#[component]
pub fn Histogram(props: &HistogramProps) -> Html {
    let report = &props.report;
    let buckets = report.first_violation.len().max(1) as u64;
    let span = report.settings.duration.0;
    let highest = report
        .first_violation
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(1);
    let violating: u64 = report.first_violation.iter().sum();
    html! {
        <figure class="lab-histogram" data-testid="lab-histogram">
            <figcaption>{ format!(
                "When the first violation came: {} of {} runs broke an invariant ({} of virtual time a run, in steps of {})",
                thousands(violating), thousands(report.runs), seconds(span), seconds(span / buckets)) }</figcaption>
            <ol class="lab-histogram-bars">
                { for report.first_violation.iter().enumerate().map(|(i, n)| {
                    let from = span * i as u64 / buckets;
                    let to = span * (i as u64 + 1) / buckets;
                    let height = *n as f64 * 100.0 / highest as f64;
                    html! {
                        <li class="lab-histogram-bucket" data-count={n.to_string()}>
                            <span class="lab-histogram-count">{ thousands(*n) }</span>
                            <span class="lab-histogram-bar" aria-hidden="true" style={format!("height: {height:.1}%")}></span>
                            <span class="lab-histogram-label">{ format!("{}–{}", seconds(from), seconds(to)) }</span>
                        </li>
                    }
                }) }
            </ol>
        </figure>
    }
}

#[derive(Properties, PartialEq)]
pub struct ViolatingSeedsProps {
    pub run: LabRun,
}

/// How many seeds the list shows at first, and how many more each press of "Show more" adds:
/// each link carries its whole scenario, so they are made only when shown.
const PAGE: usize = 20;

/// The playground's address at the first violation of `broken` in the run of `seed`: the
/// generated scenario, standing just after the event that broke it.
pub fn playground_fragment(settings: &ChaosSettings, seed: u64, broken: &Broken) -> String {
    let scenario = settings.scenario(seed);
    format!(
        "scenario={}&at={}",
        URL_SAFE_NO_PAD.encode(scenario.to_json()),
        broken.first_event + 1
    )
}

/// The violation a seed's link opens at: its first violation of `wanted`, or its first of any.
fn chosen(violation: &Violation, wanted: Option<Invariant>) -> Option<Broken> {
    match wanted {
        Some(invariant) => violation
            .broken
            .iter()
            .find(|b| b.invariant == invariant)
            .copied(),
        None => violation.first(),
    }
}

#[component]
pub fn ViolatingSeeds(props: &ViolatingSeedsProps) -> Html {
    let shown = use_state(|| PAGE);
    let wanted = use_state(|| None::<Invariant>);
    let run = &props.run;
    let matching: Vec<(u64, Broken)> = run
        .violations
        .iter()
        .filter_map(|v| chosen(v, *wanted).map(|b| (v.seed, b)))
        .collect();
    let visible: Vec<(u64, Broken)> = matching.iter().take(*shown).copied().collect();
    let links = use_memo(
        (run.spec.settings, visible.clone()),
        |(settings, visible)| {
            visible
                .iter()
                .map(|(seed, broken)| playground_fragment(settings, *seed, broken))
                .collect::<Vec<_>>()
        },
    );
    let more = {
        let shown = shown.clone();
        Callback::from(move |_: MouseEvent| shown.set(*shown + PAGE))
    };
    let on_pick = {
        let wanted = wanted.clone();
        let shown = shown.clone();
        Callback::from(move |event: Event| {
            let select: web_sys::HtmlSelectElement = event.target_unchecked_into();
            wanted.set(Invariant::from_id(&select.value()));
            shown.set(PAGE);
        })
    };
    // The invariants some run broke, to choose among.
    let broken: Vec<Invariant> = Invariant::ALL
        .into_iter()
        .filter(|i| {
            run.violations
                .iter()
                .any(|v| v.broken.iter().any(|b| b.invariant == *i))
        })
        .collect();
    let total = matching.len();
    html! {
        <section class="lab-seeds" data-testid="lab-seeds" aria-label="Violating seeds">
            <h3>{ format!("Violating seeds ({})", thousands(total as u64)) }</h3>
            if run.violations.is_empty() {
                <p class="muted">{ "None so far." }</p>
            } else {
                <label class="lab-field lab-seeds-filter">
                    <span>{ "Open each at the first violation of" }</span>
                    <select data-testid="lab-seeds-invariant" onchange={on_pick}>
                        <option value="" selected={wanted.is_none()}>{ "any invariant" }</option>
                        { for broken.iter().map(|i| html! {
                            <option value={i.id()} selected={*wanted == Some(*i)}>{ i.statement() }</option>
                        }) }
                    </select>
                </label>
                <ul>
                    { for visible.iter().zip(links.iter()).map(|((seed, broken), fragment)| html! {
                        <li>
                            <a href={format!("#{fragment}")} data-testid="lab-violating-seed" data-seed={seed.to_string()}
                                data-event={broken.first_event.to_string()} data-invariant={broken.invariant.id()}>
                                { format!("seed {seed}") }
                            </a>
                            { format!(": “{}” first broken at {}, event {}", broken.invariant.statement(),
                                seconds(broken.first_at.0), thousands(broken.first_event as u64 + 1)) }
                        </li>
                    }) }
                </ul>
                if total > visible.len() {
                    <button type="button" class="control" data-testid="lab-more-seeds" onclick={more}>
                        { format!("Show {} more", (total - visible.len()).min(PAGE)) }
                    </button>
                }
            }
        </section>
    }
}
