//! An embed's "now" line in a box as tall as its tallest line over the excerpt (issue 42): the
//! frame's height, which the host page follows, does not jump under the reader's finger with
//! each Step's narration. The tallest line is laid out hidden under the shown one; only the
//! shown one is read out.

use crate::components::Shared;
use crate::components::narration::{NowLine, longest_line};
use lockstep_sim::engine::sim::Sim;
use lockstep_view::link::embed::Bounds;
use lockstep_view::run::Run;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SteadyNowLineProps {
    /// The simulation at the shown position.
    pub sim: Shared<Sim>,
    /// The whole run, whose excerpt's lines are measured once.
    pub run: Shared<Run>,
    pub bounds: Bounds,
    pub offers_step: bool,
}

#[component]
pub fn SteadyNowLine(props: &SteadyNowLineProps) -> Html {
    let offers_step = props.offers_step;
    let tallest = use_memo(
        (props.run.clone(), props.bounds, offers_step),
        |(run, bounds, offers_step)| longest_line(&run.sim, bounds.from, bounds.to, *offers_step),
    );
    html! {
        <div class="now-line-frame">
            <NowLine sim={props.sim.clone()} {offers_step} />
            <p class="narration now-line now-reserve" aria-hidden="true">
                <span class="narration-label">{ "Now" }</span>{ (*tallest).clone() }
            </p>
        </div>
    }
}
