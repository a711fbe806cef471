//! The transport: step back, step, reset, the position, and the narration of the latest event.

use crate::state::{Action, Playground};
use lockstep_sim::describe::describe;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub playground: UseReducerHandle<Playground>,
    pub dispatch: UseReducerDispatcher<Playground>,
}

#[component]
pub fn Controls(props: &ControlsProps) -> Html {
    let playground = &props.playground;
    let send = |action: Action| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.dispatch(action))
    };
    let sim = playground.sim();
    let narration = sim.trace().last().map_or_else(
        || "Nothing has happened yet.".to_owned(),
        |event| describe(event.actor, &event.happening, sim.cast(), sim.network()),
    );
    html! {
        <section class="controls" aria-label="Playback">
            <div class="buttons">
                <button type="button" class="control" data-testid="reset" onclick={send(Action::Reset)}>
                    { "Reset" }
                </button>
                <button type="button" class="control" data-testid="back" disabled={!playground.can_go_back()}
                    onclick={send(Action::Back)}>
                    { "Back" }
                </button>
                <button type="button" class="control primary" data-testid="step" disabled={!playground.can_step()}
                    onclick={send(Action::Step)}>
                    { "Step" }
                </button>
                <span class="position" data-testid="position">
                    { format!("event {} of {}", playground.shown().len(), playground.total()) }
                </span>
                <span class="now" data-testid="now">{ format!("t = {} ms", sim.now().0) }</span>
            </div>
            <p class="narration" aria-live="polite" data-testid="narration">
                <span class="narration-label">{ "Now" }</span>
                { narration }
            </p>
            if let Some(problem) = playground.problem() {
                <p class="problem" role="alert">{ problem.to_owned() }</p>
            }
        </section>
    }
}
