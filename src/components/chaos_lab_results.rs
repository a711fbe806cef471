//! The chaos lab's results: the share of runs that broke each invariant, one group per lock
//! service × fencing run this visit ([`ShareChart`]); when in the run the first violation came
//! ([`Histogram`]); and the violating seeds, each a link that opens the playground at its first
//! violation ([`ViolatingSeeds`]). Every number is counted from the runs.

use crate::components::chaos_lab::thousands;
use crate::components::chaos_lab_form::backend_label;
use crate::lab_engine::{ChaosReport, ChaosSettings};
use crate::lab_schedule::{LabRun, Violation};
use crate::link::fencing_word;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use lockstep_sim::invariant::Invariant;
use yew::prelude::*;

/// One group of the chart: a run of the lab, `live` while it is still running.
#[derive(Clone, PartialEq)]
pub struct ChartRow {
    pub run: LabRun,
    pub live: bool,
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

/// The playground's address at `violation`'s first violation: the generated scenario, standing
/// just after the event that broke the invariant.
pub fn playground_fragment(settings: &ChaosSettings, violation: &Violation) -> String {
    let scenario = settings.scenario(violation.seed);
    format!(
        "scenario={}&at={}",
        URL_SAFE_NO_PAD.encode(scenario.to_json()),
        violation.first.first_event + 1
    )
}

#[component]
pub fn ViolatingSeeds(props: &ViolatingSeedsProps) -> Html {
    let shown = use_state(|| PAGE);
    let run = &props.run;
    let visible: Vec<Violation> = run.violations.iter().take(*shown).copied().collect();
    let links = use_memo(
        (run.spec.settings, visible.clone()),
        |(settings, visible)| {
            visible
                .iter()
                .map(|v| playground_fragment(settings, v))
                .collect::<Vec<_>>()
        },
    );
    let more = {
        let shown = shown.clone();
        Callback::from(move |_: MouseEvent| shown.set(*shown + PAGE))
    };
    let total = run.violations.len();
    html! {
        <section class="lab-seeds" data-testid="lab-seeds" aria-label="Violating seeds">
            <h3>{ format!("Violating seeds ({})", thousands(total as u64)) }</h3>
            if total == 0 {
                <p class="muted">{ "None so far." }</p>
            } else {
                <p class="muted">{ "Each opens the playground just after the event that first broke an invariant." }</p>
                <ul>
                    { for visible.iter().zip(links.iter()).map(|(v, fragment)| html! {
                        <li>
                            <a href={format!("#{fragment}")} data-testid="lab-violating-seed" data-seed={v.seed.to_string()}
                                data-event={v.first.first_event.to_string()} data-invariant={v.first.invariant.id()}>
                                { format!("seed {}", v.seed) }
                            </a>
                            { format!(": {} broken at {} (event {})", v.first.invariant.statement().to_lowercase(),
                                seconds(v.first.first_at.0), v.first.first_event + 1) }
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
