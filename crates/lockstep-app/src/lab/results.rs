//! The chaos lab's results: how far the run is ([`LabProgress`]); which run a block of results
//! is, and in how many of its runs the data stayed intact ([`LabHeadline`]); the share of runs
//! that broke each invariant and failed each check — the article's (at most one accepted writer
//! at any moment) and ours on the data, which is stronger — one group per run
//! ([`ShareChart`]), or one column per run when the user compares two ([`CompareChart`]); when
//! in the run the first violation came ([`Histogram`]); and the violating seeds, those that
//! harmed the data first, each a link that opens the playground at the violation it names
//! ([`ViolatingSeeds`]). Every number is counted from the runs.

use crate::lab::runner::{ChartRow, Status};
use crate::link::{Here, use_here};
use lockstep_sim::analysis::chaos::{Broken, ChaosReport, ChaosSettings, fencing_id, seconds};
use lockstep_sim::story::numbers::thousands;
use lockstep_sim::vocabulary::invariant::{Concern, Invariant};
use lockstep_view::lab::histogram_axis::bucket_labels;
use lockstep_view::lab::measure::{ARTICLES_CHECK, HISTOGRAM_WHY, Measure, OUR_DATA_CHECK, Why};
use lockstep_view::lab::runs::{self, Settings};
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

/// What some of `rows` broke, to draw; and what none broke, named once under the chart.
fn shown_and_never(rows: &[ChartRow]) -> (Vec<Measure>, Html) {
    let shown: Vec<Measure> = Measure::all()
        .filter(|m| rows.iter().any(|r| m.count(&r.run.report) > 0))
        .collect();
    let never: Vec<&str> = Measure::all()
        .filter(|m| !shown.contains(m))
        .map(Measure::statement)
        .collect();
    let never = if never.is_empty() {
        Html::default()
    } else {
        html! {
            <p class="muted lab-never" data-testid="lab-never">{ format!("Broken in no run: {}.", never.join("; ")) }</p>
        }
    };
    (shown, never)
}

#[component]
pub fn ShareChart(props: &ShareChartProps) -> Html {
    let here = use_here();
    let (shown, never) = shown_and_never(&props.rows);
    html! {
        <figure class="lab-chart" data-testid="lab-chart">
            <figcaption>{ "Share of runs that broke each invariant, the article's check and our data check" }</figcaption>
            { for props.rows.iter().map(|row| chart_group(row, &shown, &here)) }
            { never }
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
    let concern = concern_id(measure.concern());
    html! {
        <li class={classes!("lab-bar", format!("lab-bar-{concern}"))} data-testid="lab-bar"
            data-invariant={measure.id()} data-count={n.to_string()} data-concern={concern}>
            <span class="lab-bar-label">{ measure.statement() }</span>
            { track(n, report.runs) }
            <span class="lab-bar-value">{ format!("{} ({} of {})", percent(n, report.runs), thousands(n), thousands(report.runs)) }</span>
            { why_line(measure.why(report.settings.fencing), here) }
        </li>
    }
}

/// A bar's track, filled to `n` of `runs`.
fn track(n: u64, runs: u64) -> Html {
    let share = if runs == 0 {
        0.0
    } else {
        n as f64 * 100.0 / runs as f64
    };
    html! {
        <span class="lab-bar-track" aria-hidden="true">
            <span class="lab-bar-fill" style={format!("width: {share:.2}%")}></span>
        </span>
    }
}

#[derive(Properties, PartialEq)]
pub struct CompareChartProps {
    /// This run, then the previous one.
    pub rows: Vec<ChartRow>,
}

/// The same shares as [`ShareChart`], one column per run, each headed by what sets its run
/// apart; what the runs share is said once above.
#[component]
pub fn CompareChart(props: &CompareChartProps) -> Html {
    let rows = &props.rows;
    let (shown, never) = shown_and_never(rows);
    let specs: Vec<_> = rows.iter().map(|r| r.run.spec).collect();
    let settings = Settings::between(&specs);
    html! {
        <figure class="lab-chart lab-compare" data-testid="lab-compare-chart">
            <figcaption>{ "Share of runs that broke each invariant, this run beside the previous one" }</figcaption>
            if !settings.shared.is_empty() {
                <p class="muted lab-compare-shared">{ format!("Both: {}.", settings.shared.join(", ")) }</p>
            }
            <table class="lab-compare-table">
                <thead><tr>
                    <td></td>
                    { for rows.iter().enumerate().map(|(i, row)| html! {
                        <th scope="col" data-testid="lab-compare-run" data-run={if i == 0 { "this" } else { "earlier" }}
                            data-backend={row.run.spec.settings.backend.id()} data-fencing={fencing_id(row.run.spec.settings.fencing)}
                            data-runs={row.run.report.runs.to_string()}>
                            <strong>{ if i == 0 { "This run" } else { "Earlier run" } }</strong>
                            <span class="lab-compare-apart">{ settings.apart_words(i) }</span>
                            <span class="muted lab-compare-count">{ format!("{} runs{}", thousands(row.run.report.runs), if row.live { " so far" } else { "" }) }</span>
                        </th>
                    }) }
                </tr></thead>
                if shown.is_empty() {
                    <tbody><tr><td colspan={(rows.len() + 1).to_string()} class="muted">{ "No run broke any invariant or failed either check." }</td></tr></tbody>
                }
                { for Concern::ALL.into_iter().map(|concern| compare_rows(concern, &shown, rows)) }
            </table>
            { never }
        </figure>
    }
}

/// One concern's rows of the comparison: its heading, then a row per measure.
fn compare_rows(concern: Concern, shown: &[Measure], rows: &[ChartRow]) -> Html {
    let measures: Vec<Measure> = shown
        .iter()
        .copied()
        .filter(|m| m.concern() == concern)
        .collect();
    if measures.is_empty() {
        return Html::default();
    }
    let id = concern_id(concern);
    html! {
        <tbody>
            <tr><th scope="colgroup" colspan={(rows.len() + 1).to_string()} class="lab-concern" data-concern={id}>{ concern_heading(concern) }</th></tr>
            { for measures.iter().map(|m| html! {
                <tr class={classes!("lab-compare-row", format!("lab-bar-{id}"))} data-invariant={m.id()}>
                    <th scope="row" class="lab-bar-label">{ m.statement() }</th>
                    { for rows.iter().enumerate().map(|(i, row)| {
                        let report = &row.run.report;
                        let n = m.count(report);
                        html! {
                            <td data-testid="lab-compare-cell" data-run={if i == 0 { "this" } else { "earlier" }}
                                data-invariant={m.id()} data-count={n.to_string()}>
                                { track(n, report.runs) }
                                <span class="lab-bar-value">{ percent(n, report.runs) }
                                    <span class="lab-compare-of">{ format!(" ({} of {})", thousands(n), thousands(report.runs)) }</span></span>
                            </td>
                        }
                    }) }
                </tr>
            }) }
        </tbody>
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

/// Which of the page's runs a block of results is.
#[derive(Clone, PartialEq)]
pub enum Which {
    /// The last run started.
    This,
    /// One before it, which `remove` forgets.
    Earlier { remove: Callback<MouseEvent> },
}

#[derive(Properties, PartialEq)]
pub struct LabHeadlineProps {
    pub run: LabRun,
    /// The run is still going.
    pub live: bool,
    pub which: Which,
}

/// The head of a run's results: which run it is and its settings (an earlier one with ✕ to
/// remove it); then in how many runs the data stayed intact; then, smaller, how many of those
/// broke only the lock's promises, and what kept their data.
#[component]
pub fn LabHeadline(props: &LabHeadlineProps) -> Html {
    let run = &props.run;
    let tally = &run.tally;
    let (label, remove) = match &props.which {
        Which::This => ("This run", None),
        Which::Earlier { remove } => ("Earlier run", Some(remove.clone())),
    };
    let ended_early = (!props.live && !run.finished()).then(|| {
        format!(
            " (stopped after {} of {})",
            thousands(run.done()),
            thousands(run.spec.runs.0)
        )
    });
    html! {
        <section class="lab-headline" data-testid="lab-headline" aria-live={remove.is_none().then_some("polite")}
            data-runs={tally.runs.to_string()} data-intact={tally.data_intact().to_string()}
            data-lock-only={tally.lock_only.to_string()}>
            <div class="lab-headline-top">
                <p class="lab-headline-settings muted">
                    <strong class="lab-run-label" data-testid="lab-run-label">{ label }</strong>
                    { " · " }{ runs::words(&run.spec) }{ ended_early }
                </p>
                if let Some(remove) = remove {
                    <button type="button" class="control lab-remove-run" data-testid="lab-remove-run"
                        aria-label="Remove this earlier run" title="Remove this earlier run" onclick={remove}>{ "✕" }</button>
                }
            </div>
            <p class="lab-headline-main">
                { tally.headline() }{ if props.live { " so far" } else { "" } }
            </p>
            if let Some(detail) = tally.detail(run.spec.settings.fencing) {
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
/// wanted invariant or check, or at the run's end. For any: a run that harmed the data opens
/// where it first did (a data invariant broken or two accepted writers, else the end, where our
/// data check's verdict shows), another at the first of the lock's promises it broke.
fn chosen(violation: &Violation, wanted: Wanted) -> Option<Opens> {
    let two_writers = violation.two_writers_at.map(Opens::TwoWriters);
    let data_lost = violation.data_lost.then_some(Opens::End);
    match wanted {
        // Where it first harmed the data, if it did.
        Wanted::Any if violation.harms_data() => {
            [violation.first_harm().map(Opens::Broke), two_writers]
                .into_iter()
                .flatten()
                .min_by_key(|at| at.event())
                .or(data_lost)
        }
        Wanted::Any => violation.first().map(Opens::Broke),
        Wanted::Broke(invariant) => violation
            .broken
            .iter()
            .find(|b| b.invariant == invariant)
            .map(|b| Opens::Broke(*b)),
        Wanted::TwoWriters => two_writers,
        Wanted::DataLost => data_lost,
    }
}

/// The two groups of the seed list: the runs that harmed the data first, then those that
/// broke only the lock's promises, which the chart calls expected.
#[derive(Clone, Copy, PartialEq)]
enum Group {
    Harmed,
    BeliefsOnly,
}

impl Group {
    fn id(self) -> &'static str {
        match self {
            Group::Harmed => "data",
            Group::BeliefsOnly => "lock",
        }
    }

    fn heading(self, n: usize) -> String {
        let n = thousands(n as u64);
        match self {
            Group::Harmed => format!("Runs that harmed the data ({n})"),
            Group::BeliefsOnly => format!(
                "Runs that broke only the lock's promises ({n}): expected, their data stayed intact"
            ),
        }
    }
}

/// One group's seeds (with where each opens), and how many of them show.
struct SeedPage<'a> {
    group: Group,
    seeds: &'a [(u64, Opens)],
    shown: usize,
}

impl SeedPage<'_> {
    fn visible(&self) -> &[(u64, Opens)] {
        &self.seeds[..self.shown.min(self.seeds.len())]
    }
}

#[component]
pub fn ViolatingSeeds(props: &ViolatingSeedsProps) -> Html {
    // How many seeds each group shows: the runs that harmed the data, then the others.
    let shown = use_state(|| [PAGE; 2]);
    let here = use_here();
    let wanted = use_state(|| Wanted::Any);
    let run = &props.run;
    let (mut harmed, mut beliefs) = (Vec::new(), Vec::new());
    for violation in &run.violations {
        if let Some(at) = chosen(violation, *wanted) {
            let group = if violation.harms_data() {
                &mut harmed
            } else {
                &mut beliefs
            };
            group.push((violation.seed, at));
        }
    }
    let pages = [
        SeedPage {
            group: Group::Harmed,
            seeds: &harmed,
            shown: shown[0],
        },
        SeedPage {
            group: Group::BeliefsOnly,
            seeds: &beliefs,
            shown: shown[1],
        },
    ];
    let visible: Vec<(u64, Opens)> = pages
        .iter()
        .flat_map(|p| p.visible().iter().copied())
        .collect();
    let links = use_memo(
        (run.spec.settings, visible.clone()),
        |(settings, visible)| {
            visible
                .iter()
                .map(|(seed, at)| playground_fragment(settings, *seed, *at))
                .collect::<Vec<_>>()
        },
    );
    // The link is followed as usual; the playground then opens where the lab page was scrolled,
    // so the timeline is brought into view once it shows the run (every seed's title is alike).
    let title = use_memo(run.spec.settings, |settings| settings.scenario(0).title);
    let reveal = Callback::from(move |_: MouseEvent| {
        crate::platform::reveal::timeline_when_shown(Some((*title).clone()))
    });
    let total = harmed.len() + beliefs.len();
    let mut links = links.iter();
    let groups: Vec<Html> = pages
        .iter()
        .enumerate()
        .map(|(i, page)| {
            let more = {
                let shown = shown.clone();
                Callback::from(move |_: MouseEvent| {
                    let mut now = *shown;
                    now[i] += PAGE;
                    shown.set(now);
                })
            };
            let links: Vec<&String> = links.by_ref().take(page.visible().len()).collect();
            seed_group(page, &links, harmed.is_empty(), more, &reveal, &here)
        })
        .collect();
    html! {
        <section class="lab-seeds" data-testid="lab-seeds" aria-label="Violating seeds">
            <h3>{ format!("Violating seeds ({})", thousands(total as u64)) }</h3>
            if run.violations.is_empty() {
                <p class="muted">{ "None so far." }</p>
            } else {
                { seeds_filter(&run.violations, &wanted, &shown) }
                { for groups }
            }
        </section>
    }
}

/// One group of the seed list, its `links` made for the seeds it shows: the runs that harmed
/// the data under a heading, the others folded unless `alone` (no run harmed the data).
fn seed_group(
    page: &SeedPage,
    links: &[&String],
    alone: bool,
    more: Callback<MouseEvent>,
    reveal: &Callback<MouseEvent>,
    here: &Here,
) -> Html {
    let n = page.seeds.len();
    let left = n - page.visible().len();
    let list = html! {
        <>
            <ul>
                { for page.visible().iter().zip(links).map(|((seed, at), fragment)| html! {
                    <li>
                        <a href={here.href(fragment)} data-testid="lab-violating-seed" data-seed={seed.to_string()}
                            data-group={page.group.id()} onclick={reveal.clone()}
                            data-event={at.event().map(|e| e.to_string())} data-invariant={at.id()}>
                            { format!("seed {seed}") }
                        </a>
                        { at.words() }
                    </li>
                }) }
            </ul>
            if left > 0 {
                <button type="button" class="control" data-testid="lab-more-seeds" onclick={more}>
                    { format!("Show {} more", left.min(PAGE)) }
                </button>
            }
        </>
    };
    match page.group {
        Group::Harmed => html! {
            <div class="lab-seeds-group" data-testid="lab-seeds-group" data-group="data" data-count={n.to_string()}>
                <h4>{ page.group.heading(n) }</h4>
                if n == 0 {
                    <p class="muted">{ "None: every run on the list kept its data." }</p>
                } else {
                    { list }
                }
            </div>
        },
        Group::BeliefsOnly if n == 0 => Html::default(),
        Group::BeliefsOnly => html! {
            <details class="lab-seeds-group" data-testid="lab-seeds-group" data-group="lock" data-count={n.to_string()} open={alone}>
                <summary>{ page.group.heading(n) }</summary>
                <p class="muted">{ "For a while two clients believed they held the lock, or the service's leases or tokens went wrong, \
                    yet no write harmed the data. A lease cannot prevent that; see the chart's first group." }</p>
                { list }
            </details>
        },
    }
}

/// The menu of what the seeds broke: choosing shows the first page of the seeds that broke it.
fn seeds_filter(
    violations: &[Violation],
    wanted: &UseStateHandle<Wanted>,
    shown: &UseStateHandle<[usize; 2]>,
) -> Html {
    let on_pick = {
        let wanted = wanted.clone();
        let shown = shown.clone();
        Callback::from(move |event: Event| {
            let select: web_sys::HtmlSelectElement = event.target_unchecked_into();
            wanted.set(Wanted::from_id(&select.value()));
            shown.set([PAGE; 2]);
        })
    };
    html! {
        <label class="lab-field lab-seeds-filter">
            <span>{ "Seeds that broke" }</span>
            <select data-testid="lab-seeds-invariant" onchange={on_pick}>
                <option value="" selected={**wanted == Wanted::Any}>{ "anything" }</option>
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
        // A run that broke a belief first and the data later opens at the harm to the data.
        let belief = Broken {
            invariant: Invariant::OneBeliever,
            first_at: VirtualTime(100),
            first_event: 10,
        };
        let both = violation(vec![belief, stale], None, false);
        assert!(both.harms_data());
        assert_eq!(chosen(&both, Wanted::Any), Some(Opens::Broke(stale)));
        let belief_only = violation(vec![belief], None, false);
        assert!(!belief_only.harms_data());
        assert_eq!(
            chosen(&belief_only, Wanted::Any),
            Some(Opens::Broke(belief))
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
