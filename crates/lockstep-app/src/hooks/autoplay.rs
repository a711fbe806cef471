//! Autoplay's timer: ticks while playing, at the chosen speed. Virtual time always comes from
//! the simulation; this only dispatches `Action::Tick`.

use crate::state::{Action, Play, Speed};
use gloo_timers::callback::Interval;
use yew::prelude::*;

/// Ticks while playing, at the chosen speed; nothing while paused.
#[hook]
pub fn use_autoplay(play: Play, speed: Speed, dispatch: Callback<Action>) {
    use_effect_with((play, speed), move |(play, speed)| {
        let interval = (*play == Play::Playing)
            .then(|| Interval::new(speed.tick_ms(), move || dispatch.emit(Action::Tick)));
        move || drop(interval)
    });
}
