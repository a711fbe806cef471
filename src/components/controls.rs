//! The transport: reset, step back, play/pause, step, speed, a scrubber over every event, and
//! jumps between the events that broke an invariant.

use crate::state::{Action, Jump, Play, Playground, Speed};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub playground: UseReducerHandle<Playground>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn Controls(props: &ControlsProps) -> Html {
    let playground = &props.playground;
    let send = |action: Action| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(action.clone()))
    };
    let playing = playground.play() == Play::Playing;
    let onscrub = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: InputEvent| {
            let input: HtmlInputElement = event.target_unchecked_into();
            if let Ok(position) = input.value().parse::<usize>() {
                dispatch.emit(Action::SeekTo(position));
            }
        })
    };
    let onspeed = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            if let Ok(speed) = select.value().parse::<u16>() {
                dispatch.emit(Action::SetSpeed(Speed(speed)));
            }
        })
    };
    let violations = playground.violations().len();
    html! {
        <section class="controls" aria-label="Playback">
            <div class="buttons">
                <button type="button" class="control" data-testid="reset" onclick={send(Action::Reset)}
                    title="Reset to the start (Home)">{ "Reset" }</button>
                <button type="button" class="control" data-testid="back" disabled={!playground.can_go_back()}
                    onclick={send(Action::Back)} title="Step back (←)">{ "◀ Back" }</button>
                <button type="button" class="control primary" data-testid="play"
                    data-playing={playing.to_string()} onclick={send(Action::TogglePlay)}
                    title="Play or pause (space)">
                    { if playing { "Pause" } else { "Play" } }
                </button>
                <button type="button" class="control" data-testid="step" disabled={!playground.can_step()}
                    onclick={send(Action::Step)} title="Step forward (→)">{ "Step ▶" }</button>
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
            <div class="scrubber-row">
                <label class="visually-hidden" for="scrubber">{ "Position in the run" }</label>
                <input id="scrubber" class="scrubber" type="range" data-testid="scrubber" min="0"
                    max={playground.total().to_string()} value={playground.position().to_string()}
                    aria-valuetext={format!("event {} of {}, t = {} ms", playground.position(), playground.total(), playground.now().0)}
                    oninput={onscrub} />
                <span class="position" data-testid="position">
                    { format!("event {} of {}", playground.position(), playground.total()) }
                </span>
                <span class="now" data-testid="now">{ format!("t = {} ms", playground.now().0) }</span>
            </div>
            <div class="jumps" role="group" aria-label="Invariant violations">
                <button type="button" class="control small" data-testid="first-violation"
                    disabled={violations == 0} onclick={send(Action::JumpToViolation(Jump::First))}>
                    { "First violation" }
                </button>
                <button type="button" class="control small" data-testid="previous-violation"
                    disabled={violations == 0} onclick={send(Action::JumpToViolation(Jump::Previous))}>
                    { "◀ Previous" }
                </button>
                <button type="button" class="control small" data-testid="next-violation"
                    disabled={violations == 0} onclick={send(Action::JumpToViolation(Jump::Next))}
                    title="Next violation (n)">
                    { "Next ▶" }
                </button>
                <span class="muted" data-testid="violation-count">
                    { match violations {
                        0 => "no invariant breaks in this run".to_owned(),
                        1 => "1 event breaks an invariant".to_owned(),
                        n => format!("{n} events break an invariant"),
                    } }
                </span>
            </div>
        </section>
    }
}
