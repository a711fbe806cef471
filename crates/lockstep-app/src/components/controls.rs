//! The transport: rewind, step back, step, play/pause, speed, a scrubber over every event, and
//! jumps between the events that broke an invariant. It is a bar held at the bottom of the
//! viewport (see `.transport-bar` in the stylesheet), so it stays in reach while the page scrolls.
//! It also says when the scrubber is being dragged ([`Drag`]), so that the page can leave the
//! panels below the story as they are until the drag rests.

use crate::state::{Action, Jump, Play, Playground, Speed};
use gloo_timers::callback::Timeout;
use lockstep_view::words::violation_count;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// How long the scrubber must rest, in ms, for a drag to count as resting although the button
/// is still down: long enough to outlast the gaps between a moving pointer's input events.
pub const DRAG_REST_MS: u32 = 150;

/// Whether the scrubber is being dragged. A drag sends an input event for every move and a
/// change event when it is let go; a key press or a click on the track sends both at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drag {
    Moving,
    Resting,
}

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub playground: UseReducerHandle<Playground>,
    pub dispatch: Callback<Action>,
    /// Told when a drag of the scrubber starts moving and when it rests.
    pub on_drag: Callback<Drag>,
    /// Opens the keyboard shortcuts' sheet (the bar's "? shortcuts" hint).
    pub on_help: Callback<()>,
}

/// Makes the callback of a button that dispatches `action`.
type Send<'a> = &'a dyn Fn(Action) -> Callback<MouseEvent>;

#[component]
pub fn Controls(props: &ControlsProps) -> Html {
    let playground = &props.playground;
    let send = |action: Action| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(action.clone()))
    };
    let (onscrub, onrelease) = use_scrubber(&props.dispatch, &props.on_drag);
    // Step is the one filled button of the playground: the action a learner repeats. The
    // violation jumps sit apart in a group of their own, each saying what it jumps to.
    html! {
        <section class="transport" data-testid="transport" aria-label="Playback">
            <div class="transport-bar">
                { buttons(playground, &props.dispatch, &send) }
                <div class="scrubber-row">
                    <label class="visually-hidden" for="scrubber">{ "Position in the run" }</label>
                    <input id="scrubber" class="scrubber" type="range" data-testid="scrubber" min="0"
                        max={playground.total().to_string()} value={playground.position().to_string()}
                        aria-valuetext={format!("event {} of {}, t = {} ms", playground.position(), playground.total(), playground.now().0)}
                        oninput={onscrub} onchange={onrelease} />
                    <span class="where">
                        <span class="position" data-testid="position">
                            { format!("event {} of {}", playground.position(), playground.total()) }
                        </span>
                        { " · " }
                        <span class="now" data-testid="now">{ format!("t = {} ms", playground.now().0) }</span>
                    </span>
                </div>
                { jumps(playground.violations().len(), violation_count(playground.run().sim.trace(), playground.violations()), &send) }
                <button type="button" class="link shortcuts-hint" data-testid="shortcuts-hint"
                    onclick={props.on_help.reform(|_: MouseEvent| ())}
                    title="Keyboard shortcuts (?)">{ "? shortcuts" }</button>
            </div>
        </section>
    }
}

/// The scrubber's input and change handlers: each move seeks and says the drag moves; the drag
/// rests when the scrubber is let go, or when it has not moved for a while.
#[hook]
fn use_scrubber(
    dispatch: &Callback<Action>,
    on_drag: &Callback<Drag>,
) -> (Callback<InputEvent>, Callback<Event>) {
    let rest = use_mut_ref(|| None::<Timeout>);
    let onscrub = {
        let dispatch = dispatch.clone();
        let on_drag = on_drag.clone();
        let rest = rest.clone();
        Callback::from(move |event: InputEvent| {
            let input: HtmlInputElement = event.target_unchecked_into();
            if let Ok(position) = input.value().parse::<usize>() {
                on_drag.emit(Drag::Moving);
                dispatch.emit(Action::SeekTo(position));
                let on_drag = on_drag.clone();
                *rest.borrow_mut() = Some(Timeout::new(DRAG_REST_MS, move || {
                    on_drag.emit(Drag::Resting)
                }));
            }
        })
    };
    let onrelease = {
        let on_drag = on_drag.clone();
        Callback::from(move |_: Event| {
            rest.borrow_mut().take();
            on_drag.emit(Drag::Resting);
        })
    };
    (onscrub, onrelease)
}

/// Rewind, Back, Step, Play and the speed.
fn buttons(playground: &Playground, dispatch: &Callback<Action>, send: Send) -> Html {
    let playing = playground.play() == Play::Playing;
    let onspeed = {
        let dispatch = dispatch.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            if let Ok(speed) = select.value().parse::<u16>() {
                dispatch.emit(Action::SetSpeed(Speed(speed)));
            }
        })
    };
    html! {
        <div class="buttons">
            // Rewind keeps the user's interventions; the "edited" chip by the title drops them.
            <button type="button" class="control" data-testid="reset" onclick={send(Action::Reset)}
                title="Rewind to the start; your interventions stay (Home)">{ "Rewind" }</button>
            <button type="button" class="control" data-testid="back" disabled={!playground.can_go_back()}
                onclick={send(Action::Back)} title="Step back (←)">{ "◀ Back" }</button>
            <button type="button" class="control primary" data-testid="step" disabled={!playground.can_step()}
                onclick={send(Action::Step)} title="Step forward (→)">{ "Step ▶" }</button>
            <button type="button" class="control play-pause" data-testid="play"
                data-playing={playing.to_string()} onclick={send(Action::TogglePlay)}
                title="Play or pause (space)">
                { play_label(playing) }
            </button>
            <label class="speed">
                <span>{ "Speed" }</span>
                <select data-testid="speed" onchange={onspeed}>
                    { for Speed::CHOICES.iter().map(|s| html! {
                        <option value={s.0.to_string()} selected={*s == playground.speed()}>
                            { format!("{} events/s", s.0) }
                        </option>
                    }) }
                </select>
            </label>
        </div>
    }
}

/// Play's label, or Pause's: both are laid out in the same cell and the one not meant is hidden,
/// so the button keeps the wider one's width and the bar does not move when it changes.
pub fn play_label(playing: bool) -> Html {
    html! {
        <>
            <span class="play-word" aria-hidden={playing.to_string()}>{ "Play" }</span>
            <span class="play-word" aria-hidden={(!playing).to_string()}>{ "Pause" }</span>
        </>
    }
}

/// The jumps between the events that broke an invariant, and how many there are.
fn jumps(violations: usize, count: String, send: Send) -> Html {
    html! {
        <div class="jumps" role="group" aria-labelledby="violations-label">
            <span class="jumps-label" id="violations-label">{ "Violations" }</span>
            <button type="button" class="control small" data-testid="first-violation"
                disabled={violations == 0} onclick={send(Action::JumpToViolation(Jump::First))}
                title="First violation (f)">
                { "⇤ First violation" }
            </button>
            <button type="button" class="control small" data-testid="previous-violation"
                disabled={violations == 0} onclick={send(Action::JumpToViolation(Jump::Previous))}
                title="Previous violation (p)">
                { "◀ Previous violation" }
            </button>
            <button type="button" class="control small" data-testid="next-violation"
                disabled={violations == 0} onclick={send(Action::JumpToViolation(Jump::Next))}
                title="Next violation (n)">
                { "Next violation ▶" }
            </button>
            <span class="muted violation-count" data-testid="violation-count">
                { count }
            </span>
        </div>
    }
}
