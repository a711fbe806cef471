//! The embed's transport: Back, Step, Play and a scrubber over the excerpt only, in the flow of
//! the embed (never fixed to the viewport: the frame is as tall as its content); with
//! `controls=full` also the fencing switch, the compare toggle and the violation jumps.

use crate::components::controls::play_label;
use crate::components::fencing_switch::FencingSwitch;
use crate::state::{Action, Jump, Play};
use lockstep_view::link::embed::Bounds;
use lockstep_view::link::embed::ControlSet;
use lockstep_view::state::Playground;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EmbedTransportProps {
    pub playground: Rc<Playground>,
    pub bounds: Bounds,
    pub controls: ControlSet,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn EmbedTransport(props: &EmbedTransportProps) -> Html {
    let playground = &props.playground;
    let Bounds { from, to } = props.bounds;
    let position = playground.position();
    let send = |action: Action| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(action.clone()))
    };
    let onscrub = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: InputEvent| {
            let input: HtmlInputElement = event.target_unchecked_into();
            if let Ok(position) = input.value().parse::<usize>() {
                dispatch.emit(Action::SeekTo(position));
            }
        })
    };
    let playing = playground.play() == Play::Playing;
    let whole_run = from == 0 && to == playground.total();
    let where_words = if whole_run {
        format!("event {position} of {to}")
    } else {
        format!(
            "event {position} of {} (excerpt {from}–{to})",
            playground.total()
        )
    };
    let full = (props.controls == ControlSet::Full).then(|| {
        let violations = playground.violations().len();
        let comparing = playground.twin().is_some();
        html! {
            <div class="embed-more">
                if let Some(fencing) = playground.fencing() {
                    <FencingSwitch {fencing} dispatch={props.dispatch.clone()} testid="embed-fencing" />
                    <button type="button" class="control small" data-testid="embed-compare"
                        aria-pressed={comparing.to_string()} onclick={send(Action::ToggleCompare)}>
                        { "Compare fencing on and off" }
                    </button>
                }
                <button type="button" class="control small" data-testid="embed-previous-violation"
                    disabled={violations == 0} onclick={send(Action::JumpToViolation(Jump::Previous))}>
                    { "◀ Previous violation" }
                </button>
                <button type="button" class="control small" data-testid="embed-next-violation"
                    disabled={violations == 0} onclick={send(Action::JumpToViolation(Jump::Next))}>
                    { "Next violation ▶" }
                </button>
            </div>
        }
    });
    html! {
        <section class="embed-transport" data-testid="embed-transport" aria-label="Playback">
            <div class="buttons">
                <button type="button" class="control" data-testid="back" disabled={position <= from}
                    onclick={send(Action::Back)}>{ "◀ Back" }</button>
                <button type="button" class="control primary" data-testid="step" disabled={position >= to}
                    onclick={send(Action::Step)}>{ "Step ▶" }</button>
                <button type="button" class="control play-pause" data-testid="play" data-playing={playing.to_string()}
                    onclick={send(Action::TogglePlay)}>{ play_label(playing) }</button>
            </div>
            <div class="scrubber-row">
                <label class="visually-hidden" for="embed-scrubber">{ "Position in the run" }</label>
                <input id="embed-scrubber" class="scrubber" type="range" data-testid="scrubber"
                    min={from.to_string()} max={to.to_string()} value={position.to_string()}
                    aria-valuetext={format!("{where_words}, t = {} ms", playground.now().0)}
                    oninput={onscrub} />
                <span class="position" data-testid="position">{ where_words }</span>
            </div>
            { for full }
        </section>
    }
}
