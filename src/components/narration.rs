//! The narration: what just happened and why, read out by screen readers (an ARIA live region),
//! above a log of the latest events. Choosing an entry opens the moment just after it, which
//! moves the timeline's "now"; choosing a mark on the timeline moves this log. Only a window of
//! the latest events is rendered, so a 10,000-event run costs what 40 entries cost.

use crate::components::Shared;
use crate::run::Run;
use crate::state::Action;
use lockstep_sim::describe::describe;
use lockstep_sim::happening::Outcome;
use lockstep_sim::sim::Sim;
use yew::prelude::*;

/// How many of the latest events the log shows.
const WINDOW: usize = 40;

/// Only the simulation at the shown position and the run it belongs to: selecting, notices,
/// speed and play do not render the log again.
#[derive(Properties, PartialEq)]
pub struct NarrationProps {
    pub sim: Shared<Sim>,
    /// The complete run: each entry reads its event from there (see [`Entry`]).
    pub run: Shared<Run>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn Narration(props: &NarrationProps) -> Html {
    let sim = &*props.sim;
    let cast = sim.cast();
    let trace = sim.trace();
    let latest = trace.len().checked_sub(1);
    let now_words = trace.last().map_or_else(
        || "Nothing has happened yet. Press Step or Play.".to_owned(),
        |event| {
            let mut words = format!(
                "t = {} ms. {}",
                event.time.0,
                describe(event.actor, &event.happening, cast, sim.network())
            );
            for invariant in event.broke.iter() {
                words.push_str(&format!(" This breaks an invariant: {invariant}."));
            }
            words
        },
    );
    let first = trace.len().saturating_sub(WINDOW);
    html! {
        <section class="narration-panel" aria-label="Narration">
            <p class="narration" aria-live="polite" data-testid="narration">
                <span class="narration-label">{ "Now" }</span>
                { now_words }
            </p>
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
                    { describe(event.actor, &event.happening, cast, sim.network()) }
                </span>
            </button>
            { for event.broke.iter().map(|invariant| html! {
                <span class="event-violation" role="note">
                    <span aria-hidden="true">{ "✗ " }</span>
                    { format!("Violated: {invariant}") }
                </span>
            }) }
        </li>
    }
}
