//! The narration: the "now" line — what just happened and why, one or two lines under the
//! timeline, read out by screen readers (an ARIA live region) — and the event log of the latest
//! events, further down the page. Choosing an entry of the log opens the moment just after it,
//! which moves the timeline's "now"; choosing a mark on the timeline moves the log. Only a
//! window of the latest events is rendered, so a 10,000-event run costs what 40 entries cost.

use crate::components::Shared;
use crate::components::glossary::glossed;
use crate::platform::browser;
use crate::state::Action;
use lockstep_sim::engine::sim::Sim;
use lockstep_sim::engine::trace::TraceEvent;
use lockstep_sim::story::describe::describe;
use lockstep_sim::vocabulary::happening::Outcome;
use lockstep_sim::vocabulary::invariant::Concern;
use lockstep_view::run::Run;
use lockstep_view::words::broken_invariants;
use yew::prelude::*;

/// How many of the latest events the log shows.
const WINDOW: usize = 40;

/// Only the simulation at the shown position: selecting, notices, speed and play do not render
/// the line again.
#[derive(Properties, PartialEq)]
pub struct NowLineProps {
    pub sim: Shared<Sim>,
    /// Whether the page offers Step and Play (an embed with `controls=none` does not): the line
    /// before the first event invites them only then.
    #[prop_or(true)]
    pub offers_step: bool,
}

/// The "now" line's words before any event: an invitation where the page offers Step.
fn nothing_yet(offers_step: bool) -> String {
    if offers_step {
        "Nothing has happened yet. Press Step or Play.".to_owned()
    } else {
        "Nothing has happened yet.".to_owned()
    }
}

/// What `event` of `sim`'s run did, in words, with the invariants it broke.
fn words_of(event: &TraceEvent, sim: &Sim) -> String {
    let mut words = format!(
        "t = {} ms. {}",
        event.time.0,
        describe(event, sim.cast(), sim.network())
    );
    if let Some(broken) = broken_invariants(event.broke) {
        words.push(' ');
        words.push_str(&broken);
    }
    words
}

/// The longest "now" line of the positions `from..=to` of `run` (the words after its first
/// `from` events, …, its first `to`): the line an embed keeps room for, so that Stepping never
/// changes its height. Longest by characters, which in one font and width is near enough the
/// tallest.
pub fn longest_line(run: &Sim, from: usize, to: usize, offers_step: bool) -> String {
    let trace = run.trace();
    let first = (from == 0).then(|| nothing_yet(offers_step));
    let events = trace
        .get(from.saturating_sub(1)..to.min(trace.len()))
        .unwrap_or_default();
    first
        .into_iter()
        .chain(events.iter().map(|event| words_of(event, run)))
        .max_by_key(|words| words.chars().count())
        .unwrap_or_default()
}

/// What the latest shown event did, in words, with the invariants it broke.
#[component]
pub fn NowLine(props: &NowLineProps) -> Html {
    let sim = &*props.sim;
    let words = sim.trace().last().map_or_else(
        || nothing_yet(props.offers_step),
        |event| words_of(event, sim),
    );
    // After a Step (any new moment) the line is lifted out from under the fixed transport bar,
    // where a small phone's first screen may leave it.
    use_effect_with(props.sim.clone(), |_| {
        browser::lift_above_bar("[data-testid=\"narration\"]")
    });
    html! {
        <p class="narration now-line" aria-live="polite" data-testid="narration">
            <span class="narration-label">{ "Now" }</span>
            { glossed(&words) }
        </p>
    }
}

/// Only the simulation at the shown position and the run it belongs to: selecting, notices,
/// speed and play do not render the log again.
#[derive(Properties, PartialEq)]
pub struct EventLogProps {
    pub sim: Shared<Sim>,
    /// The complete run: each entry reads its event from there (see [`Entry`]).
    pub run: Shared<Run>,
    pub dispatch: Callback<Action>,
}

/// The latest events, oldest first, the current one marked.
#[component]
pub fn EventLog(props: &EventLogProps) -> Html {
    let trace = props.sim.trace();
    let latest = trace.len().checked_sub(1);
    let first = trace.len().saturating_sub(WINDOW);
    html! {
        <section class="card event-log" aria-labelledby="event-log-title">
            <h2 id="event-log-title">{ "event log" }</h2>
            // The log keeps its newest entry in view by itself (see `.log` in the stylesheet): no
            // script scrolls it, which would force a layout on every step.
            <div class="log">
                <div class="log-content">
                if first > 0 {
                    <p class="muted">{ format!("{first} earlier events are on the timeline.") }</p>
                }
                <ol class="trace" data-testid="trace" aria-label="Latest events" start={(first + 1).to_string()}>
                    { for (first..trace.len()).map(|index| html! {
                        <Entry key={index} run={props.run.clone()} {index} current={Some(index) == latest}
                            dispatch={props.dispatch.clone()} />
                    }) }
                </ol>
                </div>
            </div>
        </section>
    }
}

/// The "now" line above the event log, for a page that shows them together (a lesson).
#[component]
pub fn Narration(props: &EventLogProps) -> Html {
    html! {
        <section class="narration-panel" aria-label="Narration">
            <NowLine sim={props.sim.clone()} />
            <EventLog sim={props.sim.clone()} run={props.run.clone()} dispatch={props.dispatch.clone()} />
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct EntryProps {
    run: Shared<Run>,
    /// The event's index in the run.
    index: usize,
    /// Whether it is the latest shown.
    current: bool,
    dispatch: Callback<Action>,
}

/// One entry of the log. A component of its own, reading the complete run, so a step renders
/// only the entry it adds and the one that stops being the latest: a past event's words never
/// change (they name messages by their payload, which is the same in the complete run).
#[component]
fn Entry(props: &EntryProps) -> Html {
    let sim = &props.run.sim;
    let cast = sim.cast();
    let index = props.index;
    let Some(event) = sim.trace().get(index) else {
        return Html::default();
    };
    let outcome = match event.happening.outcome() {
        Some(Outcome::Ok) => "ok",
        Some(Outcome::Refused) => "refused",
        None => "neutral",
    };
    let current = props.current;
    let classes = classes!(
        "event",
        format!("outcome-{outcome}"),
        current.then_some("latest"),
        (!event.broke.is_empty()).then_some("breaks"),
    );
    let dispatch = props.dispatch.clone();
    let onclick = Callback::from(move |_: MouseEvent| dispatch.emit(Action::SeekTo(index + 1)));
    html! {
        <li class={classes} data-testid="event" data-event-id={event.id.0.to_string()}
            data-kind={event.happening.kind()}>
            <button type="button" class="event-open" {onclick}
                aria-current={current.then_some("step")}>
                <span class="event-time">{ format!("{} ms", event.time.0) }</span>
                <span class="event-actor">{ cast.name(event.actor).to_owned() }</span>
                <span class="event-description" data-testid="event-description">
                    { describe(event, cast, sim.network()) }
                </span>
            </button>
            { for event.broke.iter().map(|invariant| {
                let group = match invariant.concern() {
                    Concern::Lock => "beliefs",
                    Concern::Data => "data",
                };
                html! {
                    <span class={classes!("event-violation", format!("event-violation-{group}"))} role="note">
                        <span aria-hidden="true">{ "✗ " }</span>
                        { format!("Violated ({group}): {invariant}") }
                    </span>
                }
            }) }
        </li>
    }
}
