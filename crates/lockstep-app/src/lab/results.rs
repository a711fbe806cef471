//! The chaos lab's results: how far the run is ([`LabProgress`]); the share of runs that broke
//! each invariant and failed each check — the article's (at most one accepted writer at any
//! moment) and ours on the data, which is stronger — one group per lock service × fencing run
//! this visit ([`ShareChart`]); when in the run the first violation came ([`Histogram`]); and
//! the violating seeds, each a link that opens the playground at the first violation of the
//! invariant or check chosen ([`ViolatingSeeds`]). Every number is counted from the runs.

use crate::lab::runner::{ChartRow, Status};
use crate::link::{Here, use_here};
use lockstep_sim::analysis::chaos::{Broken, ChaosReport, ChaosSettings, fencing_id, seconds};
use lockstep_sim::story::numbers::thousands;
use lockstep_sim::vocabulary::invariant::{Concern, Invariant};
use lockstep_view::lab::histogram_axis::bucket_labels;
use lockstep_view::lab::measure::{ARTICLES_CHECK, HISTOGRAM_WHY, Measure, OUR_DATA_CHECK, Why};
use lockstep_view::lab::schedule::{LabRun, Violation};
use lockstep_view::link::chaos::ChaosRunRef;
use lockstep_view::link::share::at_position;
use lockstep_view::state::Compare;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LabProgressProps {
    pub run: Option<LabRun>,
    pub status: Status,
    /// The workers are still loading.
    pub loading: bool,
    /// Batches the workers have not answered yet ([`crate::lab::runner::LabRunner::outstanding`]).
    pub outstanding: usize,
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
            data-done={done.to_string()} data-total={total.to_string()}
            data-outstanding={props.outstanding.to_string()}>
            <progress max={total.to_string()} value={done.to_string()} aria-label="Seeds run"></progress>
            <p class={classes!("lab-status", failed.then_some("problem"))} role="status" data-testid="lab-status">
                { format!("{state} {} of {} runs.", thousands(done), thousands(total)) }
            </p>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ShareChartProps {
    pub rows: Vec<ChartRow>,
}

/// `12.5%`, with one decimal; `0%` for none.
fn percent(part: u64, whole: u64) -> String {
    if part == 0 || whole == 0 {
        return "0%".to_owned();
    }
    format!("{:.1}%", part as f64 * 100.0 / whole as f64)
}

#[component]
pub fn ShareChart(props: &ShareChartProps) -> Html {
    let here = use_here();
    // What some run broke; the rest is named once, under the chart.
    let shown: Vec<Measure> = Measure::all()
        .filter(|m| props.rows.iter().any(|r| m.count(&r.run.report) > 0))
        .collect();
    let never: Vec<&str> = Measure::all()
        .filter(|m| !shown.contains(m))
        .map(Measure::statement)
        .collect();
    html! {
        <figure class="lab-chart" data-testid="lab-chart">
            <figcaption>{ "Share of runs that broke each invariant, the article's check and our data check" }</figcaption>
            { for props.rows.iter().map(|row| chart_group(row, &shown, &here)) }
            if !never.is_empty() {
                <p class="muted lab-never" data-testid="lab-never">{ format!("Broken in no run: {}.", never.join("; ")) }</p>
            }
        </figure>
    }
}

/// What the lab calls each group of bars.
fn concern_heading(concern: Concern) -> &'static str {
    match concern {
        Concern::Lock => "The lock's promises: a lease cannot keep these when processes pause",
        Concern::Data => "The data: what the resource accepted",
    }
}

/// The word a group's elements carry in `data-concern` and their class.
fn concern_id(concern: Concern) -> &'static str {
    match concern {
        Concern::Lock => "lock",
        Concern::Data => "data",
    }
}

/// One lock service × fencing's bars: the lock's promises (drawn calm), then the data; the links
/// to lessons written from `here`.
fn chart_group(row: &ChartRow, shown: &[Measure], here: &Here) -> Html {
    let report = &row.run.report;
    html! {
        <div class="lab-chart-group" data-testid="lab-chart-group"
            data-backend={report.settings.backend.id()} data-fencing={fencing_id(report.settings.fencing)}
            data-runs={report.runs.to_string()}>
            <p class="lab-chart-title">
                <strong>{ report.settings.words() }</strong>
                { format!(" · {} runs{}", thousands(report.runs), if row.live { " so far" } else { "" }) }
            </p>
            if shown.is_empty() {
                <p class="muted">{ "No run broke any invariant or failed either check." }</p>
            }
            { for Concern::ALL.into_iter().map(|concern| {
                let bars: Vec<Measure> = shown.iter().copied().filter(|m| m.concern() == concern).collect();
                if bars.is_empty() {
                    return Html::default();
                }
                html! {
                    <>
                        <p class="lab-concern" data-concern={concern_id(concern)}>{ concern_heading(concern) }</p>
                        <ul class="lab-bars">
                            { for bars.iter().map(|m| bar(*m, report, here)) }
                        </ul>
                    </>
                }
            }) }
        </div>
    }
}

/// One bar: what it counts, its share, and why it is there.
fn bar(measure: Measure, report: &ChaosReport, here: &Here) -> Html {
    let n = measure.count(report);
    let share = if report.runs == 0 {
        0.0
    } else {
        n as f64 * 100.0 / report.runs as f64
    };
    let concern = concern_id(measure.concern());
    html! {
        <li class={classes!("lab-bar", format!("lab-bar-{concern}"))} data-testid="lab-bar"
            data-invariant={measure.id()} data-count={n.to_string()} data-concern={concern}>
            <span class="lab-bar-label">{ measure.statement() }</span>
            <span class="lab-bar-track" aria-hidden="true">
                <span class="lab-bar-fill" style={format!("width: {share:.2}%")}></span>
            </span>
            <span class="lab-bar-value">{ format!("{} ({} of {})", percent(n, report.runs), thousands(n), thousands(report.runs)) }</span>
            { why_line(measure.why(report.settings.fencing), here) }
        </li>
    }
}

/// The sentence that says why a chart shows what it shows, and the lesson step that shows it.
fn why_line(why: Why, here: &Here) -> Html {
    html! {
        <p class="lab-why" data-testid="lab-why">
            { why.sentence }{ " " }
            <a href={here.href(&why.step.href())} data-testid="lab-why-lesson" data-lesson={why.step.lesson}
                data-step={why.step.step.to_string()}>{ "See it in a lesson" }</a>
        </p>
    }
}

#[derive(Properties, PartialEq)]
pub struct LabHeadlineProps {
    pub run: LabRun,
    /// The run is still going.
    pub live: bool,
}

/// The lab's headline: in how many runs the data stayed intact; then, smaller, how many of
/// those broke only the lock's promises.
#[component]
pub fn LabHeadline(props: &LabHeadlineProps) -> Html {
    let tally = &props.run.tally;
    html! {
        <section class="lab-headline" data-testid="lab-headline" aria-live="polite"
            data-runs={tally.runs.to_string()} data-intact={tally.data_intact().to_string()}
            data-lock-only={tally.lock_only.to_string()}>
            <p class="lab-headline-main">
                { tally.headline() }{ if props.live { " so far" } else { "" } }
            </p>
            <p class="lab-headline-settings muted">{ props.run.spec.settings.words() }</p>
            if let Some(detail) = tally.detail() {
                <p class="lab-headline-detail" data-testid="lab-headline-detail">{ detail }</p>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct HistogramProps {
    pub report: ChaosReport,
}

#[component]
pub fn Histogram(props: &HistogramProps) -> Html {
    let here = use_here();
    let report = &props.report;
    let histogram = &report.first_violation;
    let bucket = histogram.bucket_ms.0;
    let highest = histogram.counts.iter().copied().max().unwrap_or(0).max(1);
    let violating: u64 = histogram.counts.iter().sum();
    let labels = bucket_labels(&histogram.counts);
    html! {
        <figure class="lab-histogram" data-testid="lab-histogram">
            <figcaption>{ format!(
                "When the first violation came: {} of {} runs broke an invariant (runs of {}, in steps of {})",
                thousands(violating), thousands(report.runs), seconds(report.settings.duration.0), seconds(bucket)) }</figcaption>
            { why_line(HISTOGRAM_WHY, &here) }
            <ol class="lab-histogram-bars" style={format!("grid-template-columns: repeat({}, minmax(0, 1fr))", histogram.counts.len().max(1))}>
                { for histogram.counts.iter().zip(labels).enumerate().map(|(i, (n, label))| {
                    let from = bucket * i as u64;
                    let to = (from + bucket).min(report.settings.duration.0);
                    let height = *n as f64 * 100.0 / highest as f64;
                    html! {
                        <li class="lab-histogram-bucket" data-count={n.to_string()}>
                            <span class={classes!("lab-histogram-count", label.peak.then_some("peak"))}
                                data-testid="lab-histogram-count">{ thousands(*n) }</span>
                            <span class="lab-histogram-area" aria-hidden="true">
                                <span class="lab-histogram-bar" style={format!("height: {height:.1}%")}></span>
                            </span>
                            <span class={classes!("lab-histogram-label", label.tick.then_some("tick"))}
                                data-testid="lab-histogram-label">
                                <span class="visually-hidden">{ format!("{} to ", seconds(from)) }</span>
                                { seconds(to) }
                            </span>
                        </li>
                    }
                }) }
            </ol>
            <p class="muted">{ "Each bar ends at the time under it." }</p>
        </figure>
    }
}

#[derive(Properties, PartialEq)]
pub struct ViolatingSeedsProps {
    pub run: LabRun,
}

/// How many seeds the list shows at first, and how many more each press of "Show more" adds:
/// a long list is not read, and its links are made only when shown.
const PAGE: usize = 20;

/// Where a violating seed's link opens in the playground, and what the list says of it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Opens {
    /// Just after the event that first broke this invariant.
    Broke(Broken),
    /// Just after the first moment with two accepted writers (the event at this trace index):
    /// the article's check failed there.
    TwoWriters(usize),
    /// At the run's end, where our data check's verdict shows: only data was lost.
    End,
}

impl Opens {
    /// The trace index of the event the link stands just after, if any.
    fn event(self) -> Option<usize> {
        match self {
            Opens::Broke(broken) => Some(broken.first_event),
            Opens::TwoWriters(event) => Some(event),
            Opens::End => None,
        }
    }

    /// What it marks: an invariant's or a check's id.
    fn id(self) -> &'static str {
        match self {
            Opens::Broke(broken) => broken.invariant.id(),
            Opens::TwoWriters(_) => Measure::TwoWriters.id(),
            Opens::End => Measure::DataLost.id(),
        }
    }

    /// The words after the seed in the list.
    fn words(self) -> String {
        match self {
            Opens::Broke(broken) => format!(
                ": “{}” first broken at {}, event {}",
                broken.invariant.statement(),
                seconds(broken.first_at.0),
                thousands(broken.first_event as u64 + 1)
            ),
            Opens::TwoWriters(event) => format!(
                ": two accepted writers at once (the article's check) at event {}",
                thousands(event as u64 + 1)
            ),
            Opens::End => {
                ": increments lost, by our data check (opens at the run's end)".to_owned()
            }
        }
    }
}

/// The playground's address for the run of `seed`: the lab's settings and the seed (the
/// playground generates the scenario again), standing just after the event `at` names (or at
/// the run's end, where the data check's verdict shows, when only data was lost).
fn playground_fragment(settings: &ChaosSettings, seed: u64, at: Opens) -> String {
    let run = ChaosRunRef {
        settings: *settings,
        seed,
    };
    at_position(
        &format!("chaos={}", run.value()),
        at.event().map(|event| event + 1),
        Compare::Off,
    )
}

/// Which violations the list shows.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Wanted {
    Any,
    Broke(Invariant),
    TwoWriters,
    DataLost,
}

impl Wanted {
    fn id(self) -> &'static str {
        match self {
            Wanted::Any => "",
            Wanted::Broke(i) => i.id(),
            Wanted::TwoWriters => Measure::TwoWriters.id(),
            Wanted::DataLost => Measure::DataLost.id(),
        }
    }

    fn from_id(id: &str) -> Wanted {
        match id {
            "two_accepted_writers" => Wanted::TwoWriters,
            "data_lost" => Wanted::DataLost,
            _ => Invariant::from_id(id).map_or(Wanted::Any, Wanted::Broke),
        }
    }
}

/// Whether the list shows `violation`, and where its link opens: at the first violation of the
/// wanted invariant or check (for any, the earliest invariant broken, else the article's
/// check), or at the run's end.
fn chosen(violation: &Violation, wanted: Wanted) -> Option<Opens> {
    let two_writers = violation.two_writers_at.map(Opens::TwoWriters);
    let data_lost = violation.data_lost.then_some(Opens::End);
    match wanted {
        Wanted::Any => violation
            .first()
            .map(Opens::Broke)
            .or(two_writers)
            .or(data_lost),
        Wanted::Broke(invariant) => violation
            .broken
            .iter()
            .find(|b| b.invariant == invariant)
            .map(|b| Opens::Broke(*b)),
        Wanted::TwoWriters => two_writers,
        Wanted::DataLost => data_lost,
    }
}

#[component]
pub fn ViolatingSeeds(props: &ViolatingSeedsProps) -> Html {
    let shown = use_state(|| PAGE);
    let here = use_here();
    let wanted = use_state(|| Wanted::Any);
    let run = &props.run;
    let matching: Vec<(u64, Opens)> = run
        .violations
        .iter()
        .filter_map(|v| chosen(v, *wanted).map(|at| (v.seed, at)))
        .collect();
    let visible: Vec<(u64, Opens)> = matching.iter().take(*shown).copied().collect();
    let links = use_memo(
        (run.spec.settings, visible.clone()),
        |(settings, visible)| {
            visible
                .iter()
                .map(|(seed, at)| playground_fragment(settings, *seed, *at))
                .collect::<Vec<_>>()
        },
    );
    let more = {
        let shown = shown.clone();
        Callback::from(move |_: MouseEvent| shown.set(*shown + PAGE))
    };
    // The link is followed as usual; the playground then opens where the lab page was scrolled,
    // so the timeline is brought into view once it shows the run (every seed's title is alike).
    let title = use_memo(run.spec.settings, |settings| settings.scenario(0).title);
    let reveal = Callback::from(move |_: MouseEvent| {
        crate::platform::reveal::timeline_when_shown(Some((*title).clone()))
    });
    let total = matching.len();
    html! {
        <section class="lab-seeds" data-testid="lab-seeds" aria-label="Violating seeds">
            <h3>{ format!("Violating seeds ({})", thousands(total as u64)) }</h3>
            if run.violations.is_empty() {
                <p class="muted">{ "None so far." }</p>
            } else {
                { seeds_filter(&run.violations, &wanted, &shown) }
                <ul>
                    { for visible.iter().zip(links.iter()).map(|((seed, at), fragment)| html! {
                        <li>
                            <a href={here.href(fragment)} data-testid="lab-violating-seed" data-seed={seed.to_string()}
                                onclick={reveal.clone()} data-event={at.event().map(|e| e.to_string())} data-invariant={at.id()}>
                                { format!("seed {seed}") }
                            </a>
                            { at.words() }
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

/// The menu of what the seeds broke: choosing shows the first page of the seeds that broke it.
fn seeds_filter(
    violations: &[Violation],
    wanted: &UseStateHandle<Wanted>,
    shown: &UseStateHandle<usize>,
) -> Html {
    let on_pick = {
        let wanted = wanted.clone();
        let shown = shown.clone();
        Callback::from(move |event: Event| {
            let select: web_sys::HtmlSelectElement = event.target_unchecked_into();
            wanted.set(Wanted::from_id(&select.value()));
            shown.set(PAGE);
        })
    };
    html! {
        <label class="lab-field lab-seeds-filter">
            <span>{ "Seeds that broke" }</span>
            <select data-testid="lab-seeds-invariant" onchange={on_pick}>
                <option value="" selected={**wanted == Wanted::Any}>{ "anything (each opens at its first violation)" }</option>
                { for broken_choices(violations).iter().map(|(w, label)| html! {
                    <option value={w.id()} selected={**wanted == *w}>{ *label }</option>
                }) }
            </select>
        </label>
    }
}

/// What some run broke, to choose among.
fn broken_choices(violations: &[Violation]) -> Vec<(Wanted, &'static str)> {
    Invariant::ALL
        .into_iter()
        .filter(|i| {
            violations
                .iter()
                .any(|v| v.broken.iter().any(|b| b.invariant == *i))
        })
        .map(|i| (Wanted::Broke(i), i.statement()))
        .chain(
            violations
                .iter()
                .any(|v| v.two_writers_at.is_some())
                .then_some((Wanted::TwoWriters, ARTICLES_CHECK)),
        )
        .chain(
            violations
                .iter()
                .any(|v| v.data_lost)
                .then_some((Wanted::DataLost, OUR_DATA_CHECK)),
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::world::time::VirtualTime;

    fn violation(broken: Vec<Broken>, two_writers_at: Option<usize>, data_lost: bool) -> Violation {
        Violation {
            seed: 4,
            broken,
            two_writers_at,
            data_lost,
        }
    }

    #[test]
    fn each_check_opens_its_seed_at_its_own_moment() {
        let stale = Broken {
            invariant: Invariant::NoStaleWrite,
            first_at: VirtualTime(900),
            first_event: 70,
        };
        let all = violation(vec![stale], Some(120), true);
        assert_eq!(chosen(&all, Wanted::Any), Some(Opens::Broke(stale)));
        assert_eq!(
            chosen(&all, Wanted::TwoWriters),
            Some(Opens::TwoWriters(120))
        );
        assert_eq!(chosen(&all, Wanted::DataLost), Some(Opens::End));
        let checks_only = violation(Vec::new(), Some(120), true);
        assert_eq!(
            chosen(&checks_only, Wanted::Any),
            Some(Opens::TwoWriters(120))
        );
        let data_only = violation(Vec::new(), None, true);
        assert_eq!(chosen(&data_only, Wanted::Any), Some(Opens::End));
        assert_eq!(chosen(&data_only, Wanted::TwoWriters), None);
        assert_eq!(
            Opens::TwoWriters(120).words(),
            ": two accepted writers at once (the article's check) at event 121"
        );
        assert_eq!(Wanted::from_id(Wanted::TwoWriters.id()), Wanted::TwoWriters);
        assert!(
            playground_fragment(
                &ChaosSettings::verification_test(lockstep_sim::models::resource::Fencing::Off),
                4,
                Opens::TwoWriters(120)
            )
            .ends_with("&at=121")
        );
    }
}
