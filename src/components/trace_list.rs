//! The list of events shown so far, newest highlighted, with what each one broke. The list keeps
//! its newest event in view as the run advances.

use crate::state::Playground;
use lockstep_sim::describe::describe;
use lockstep_sim::happening::Outcome;
use web_sys::Element;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TraceListProps {
    pub playground: UseReducerHandle<Playground>,
}

#[component]
pub fn TraceList(props: &TraceListProps) -> Html {
    let sim = props.playground.sim();
    let cast = sim.cast();
    let latest = sim.trace().len().checked_sub(1);
    let panel = use_node_ref();
    {
        let panel = panel.clone();
        use_effect_with(sim.trace().len(), move |_| {
            if let Some(panel) = panel.cast::<Element>() {
                panel.set_scroll_top(panel.scroll_height());
            }
        });
    }
    html! {
        <section class="timeline-panel" aria-label="Trace" ref={panel}>
        <ol class="trace" data-testid="trace" aria-label="Events so far">
            { for sim.trace().iter().enumerate().map(|(index, event)| {
                let outcome = match event.happening.outcome() {
                    Some(Outcome::Ok) => "ok",
                    Some(Outcome::Refused) => "refused",
                    None => "neutral",
                };
                let classes = classes!(
                    "event",
                    format!("outcome-{outcome}"),
                    (Some(index) == latest).then_some("latest"),
                    (!event.broke.is_empty()).then_some("breaks"),
                );
                html! {
                    <li key={event.id.0} class={classes} data-testid="event" data-event-id={event.id.0.to_string()}>
                        <span class="event-time">{ format!("{} ms", event.time.0) }</span>
                        <span class="event-actor">{ cast.name(event.actor).to_owned() }</span>
                        <span class="event-description" data-testid="event-description">
                            { describe(event.actor, &event.happening, cast, sim.network()) }
                        </span>
                        { for event.broke.iter().map(|invariant| html! {
                            <span class="event-violation" role="note">
                                <span aria-hidden="true">{ "✗ " }</span>
                                { format!("Violated: {invariant}") }
                            </span>
                        }) }
                    </li>
                }
            }) }
        </ol>
        </section>
    }
}
