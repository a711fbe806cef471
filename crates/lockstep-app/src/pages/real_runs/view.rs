//! One recording beside its simulation: a transport stepping both by one clock, each run's
//! latest moment in words, the two timelines on one time axis (the simulation's leads), and
//! the invariants as each had judged them by then. A history with no scenario is shown alone.

use crate::components::Shared;
use crate::components::timeline::{AxisRole, FollowLead, SharedTimeAxis, Timeline};
use crate::hooks::use_link_to;
use crate::state::Selection;
use lockstep_sim::story::describe::describe;
use lockstep_sim::story::numbers::thousands;
use lockstep_view::embed::code::{AppAddress, for_recording};
use lockstep_view::recorded::side_by_side::{Agreement, SideBySide, VerdictRow};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct RealRunProps {
    pub both: Shared<SideBySide>,
    /// The shipped recording shown, by id, which the page offers to embed; none for a history
    /// from the user's disk, or inside an embed.
    #[prop_or_default]
    pub recording: Option<String>,
}

#[component]
pub fn RealRunView(props: &RealRunProps) -> Html {
    let both = &*props.both;
    // Opens at the end, where both runs are whole; Start replays them.
    let step = use_state(|| both.steps());
    {
        let step = step.clone();
        use_effect_with(props.both.clone(), move |both| step.set(both.steps()));
    }
    let at = (*step).min(both.steps());
    let now = both.time_at(at);
    let history = &both.recorded.history;
    let recorded = &history.recorded;
    let scope = AttrValue::from(history.title.clone());
    // The site's root (`#` alone in the first render, as the build writes it).
    let page = use_link_to(&AttrValue::default());
    html! {
        <article class="real-run" data-testid="real-run">
            <h3 data-testid="real-title">{ history.title.clone() }</h3>
            <p class="muted" data-testid="real-recorded">{ format!(
                "Recorded by {} on {} against {}. Times are milliseconds from the recording's start; \
                 each arrow spans a request's round trip, from its send to its answer.",
                recorded.by, recorded.on, recorded.against.join(" and ")) }</p>
            { transport(&step, at, both.steps(), now) }
            { latest(both, now) }
            <SharedTimeAxis>
                if let Some(simulated) = &both.simulated {
                    <Timeline layout={Shared(Rc::clone(&simulated.layout))}
                        position={both.simulated_position(now)} {now} selection={Selection::Nothing}
                        dispatch={Callback::noop()} name="simulated" scope={scope.clone()} axis={AxisRole::Lead}
                        caption={"Simulated: Lockstep's model of the same scenario"} />
                }
                <FollowLead>
                    <Timeline layout={Shared(Rc::clone(&both.recorded.layout))}
                        position={both.recorded.position_at(now)} {now} selection={Selection::Nothing}
                        dispatch={Callback::noop()} name="recorded" scope={scope}
                        axis={if both.simulated.is_some() { AxisRole::Follow } else { AxisRole::Own }}
                        caption={format!("Recorded against {}", recorded.against.join(" and "))} />
                </FollowLead>
            </SharedTimeAxis>
            { verdicts(&both.verdicts_by(now), both.agreement_by(now)) }
            { for props.recording.as_deref().map(|id| embed_code(&page, id, &history.title)) }
        </article>
    }
}

/// The code that embeds recording `id` in another page (this one at `page`, from
/// [`use_link_to`]): with the host script, or an iframe.
fn embed_code(page: &str, id: &str, title: &str) -> Html {
    let code = for_recording(&AppAddress::of_page(page), id, title);
    html! {
        <details class="real-embed" data-testid="real-embed">
            <summary>{ "Embed this recorded run in your own page" }</summary>
            <label>{ "With the host script (the frame sizes itself):" }
                <textarea readonly=true rows="3" data-testid="real-embed-host-script" value={code.host_script} />
            </label>
            <label>{ "As a plain iframe:" }
                <textarea readonly=true rows="3" data-testid="real-embed-iframe" value={code.iframe} />
            </label>
        </details>
    }
}

fn transport(step: &UseStateHandle<usize>, at: usize, last: usize, now: u64) -> Html {
    let go = |to: usize| {
        let step = step.clone();
        Callback::from(move |_: MouseEvent| step.set(to))
    };
    html! {
        <div class="real-transport" role="group" aria-label="Step both runs">
            <button type="button" class="tool" data-testid="real-start" disabled={at == 0} onclick={go(0)}>{ "Start" }</button>
            <button type="button" class="tool" data-testid="real-back" disabled={at == 0} onclick={go(at.saturating_sub(1))}>{ "◀ Back" }</button>
            <button type="button" class="tool primary" data-testid="real-step" disabled={at >= last} onclick={go((at + 1).min(last))}>{ "Step ▶" }</button>
            <button type="button" class="tool" data-testid="real-end" disabled={at >= last} onclick={go(last)}>{ "End" }</button>
            <span class="position" data-testid="real-position">{ format!("t = {} ms · step {at} of {last}", thousands(now)) }</span>
        </div>
    }
}

/// Each run's latest moment by `now`, in words.
fn latest(both: &SideBySide, now: u64) -> Html {
    let recorded = both
        .recorded
        .latest_words(now)
        .unwrap_or_else(|| "nothing yet".to_owned());
    let simulated = both.simulated.as_ref().map(|s| {
        let sim = &s.run.sim;
        both.simulated_position(now)
            .checked_sub(1)
            .and_then(|i| sim.trace().get(i))
            .map_or_else(
                || "nothing yet".to_owned(),
                |e| describe(e, sim.cast(), sim.network()),
            )
    });
    html! {
        <div class="real-now" aria-live="polite">
            if let Some(simulated) = simulated {
                <p data-testid="real-now-simulated"><strong>{ "Simulated: " }</strong>{ simulated }</p>
            }
            <p data-testid="real-now-recorded"><strong>{ "Recorded: " }</strong>{ recorded }</p>
        </div>
    }
}

/// The invariants, each as the simulation and the recording had judged them by now, and
/// whether the two agree (with a simulation beside).
fn verdicts(rows: &[VerdictRow], agreement: Option<Agreement>) -> Html {
    let beside = agreement.is_some();
    html! {
        <section class="card real-verdicts" data-testid="real-verdicts">
            <h3>{ "Invariants so far" }</h3>
            <table>
                <thead><tr>
                    <th scope="col">{ "Invariant" }</th>
                    if beside { <th scope="col">{ "Simulated" }</th> }
                    <th scope="col">{ "Recorded" }</th>
                </tr></thead>
                <tbody>
                    { for rows.iter().map(|row| html! {
                        <tr data-invariant={row.invariant.id()}>
                            <th scope="row">{ row.invariant.statement() }</th>
                            if let Some(broken) = row.simulated {
                                <td data-testid="verdict-simulated">{ if broken { "broken" } else { "holds" } }</td>
                            }
                            <td data-testid="verdict-recorded">{ row.recorded.as_ref().map_or_else(
                                || "holds".to_owned(), |b| format!("broken: {b}")) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            if let Some(agreement) = agreement {
                <p data-testid="real-agree">{ match agreement {
                    Agreement::SoFar => "The recording and the simulation agree on every invariant so far.",
                    Agreement::OnlyInTime => "They differ here only in time: the real servers' milliseconds \
                        are not the model's, so one run breaks an invariant first; by the end both have broken \
                        the same ones.",
                    Agreement::Disagree => "The recording and the simulation disagree: one of them teaches \
                        something wrong.",
                } }</p>
            }
        </section>
    }
}
