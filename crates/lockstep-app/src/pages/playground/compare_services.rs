//! Comparing the open run with another lock service: the toolbar's "Compare with" choice, the
//! one-line verdict (computed by `lockstep_sim::against` from both runs, or by
//! `lockstep_view::scenario_twin` for another scenario) and the list of what each intervention became
//! on the other service. The twin itself is state
//! (`crate::state::TwinRun`, made once per run); this module only shows it and dispatches
//! `Action::SetCompare`. It must not run a simulation.

use crate::state::{Action, Compare, Comparison};
use lockstep_sim::analysis::against::{Carried, Carry, Target, Twin};
use lockstep_sim::analysis::chaos::ChaosBackend;
use lockstep_sim::scenario::catalogue;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CompareChoiceProps {
    pub compare: Compare,
    /// The service the open scenario runs on (left out of the choices).
    pub service: Option<ChaosBackend>,
    /// Whether the resource has fencing to switch.
    pub fencing: bool,
    pub dispatch: Callback<Action>,
}

/// The value of a choice in the `<select>`: `off`, `fencing`, a service's id, or a scenario's.
fn value_of(compare: Compare) -> &'static str {
    match compare {
        Compare::Off => "off",
        Compare::Fencing => "fencing",
        Compare::Service(service) => service.id(),
        Compare::Scenario(id) => id,
    }
}

fn compare_of(value: &str) -> Compare {
    match value {
        "fencing" => Compare::Fencing,
        other => ChaosBackend::from_id(other)
            .map(Compare::Service)
            .or_else(|| catalogue::entry(other).map(|e| Compare::Scenario(e.id)))
            .unwrap_or(Compare::Off),
    }
}

/// "Compare with": nothing, fencing switched, or one of the other five lock services; and, while
/// a lesson or a link compares with another scenario, that scenario.
#[component]
pub fn CompareChoice(props: &CompareChoiceProps) -> Html {
    let onchange = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            // Another scenario is only listed while it is the comparison: choosing it again
            // changes nothing, and its file is not at hand here.
            if let Ok(comparison) = Comparison::of(compare_of(&select.value()), &|_| None) {
                dispatch.emit(Action::SetCompare(comparison));
            }
        })
    };
    let current = props.compare;
    let option = |compare: Compare, label: String| {
        html! {
            <option value={value_of(compare)} selected={compare == current}>{ label }</option>
        }
    };
    html! {
        // The label is read out; on screen the first choice says it, so the bar stays one row.
        <label class="compare-with">
            <span class="visually-hidden">{ "Compare with" }</span>
            <select data-testid="compare-with" {onchange}>
                { option(Compare::Off, "Compare with: nothing".to_owned()) }
                if props.fencing {
                    { option(Compare::Fencing, "fencing on/off".to_owned()) }
                }
                { for ChaosBackend::ALL
                    .into_iter()
                    .filter(|s| Some(*s) != props.service)
                    .map(|s| option(Compare::Service(s), s.label().to_owned())) }
                // Short, so the setup bar stays one row: the twin's caption names the scenario.
                if let Compare::Scenario(id) = current {
                    <option value={id} selected=true title={catalogue::entry(id).map_or(id, |e| e.title)}>
                        { "twin scenario" }</option>
                }
            </select>
        </label>
    }
}

/// The verdict of both runs, in one line, where the story is.
pub fn verdict(line: String) -> Html {
    html! {
        <p class="compare-verdict" data-testid="compare-verdict" role="status">
            <strong>{ "Compared: " }</strong>{ line }
        </p>
    }
}

/// What each intervention became on the other service, the ones without a counterpart with
/// their reason, and the settings that were not carried.
pub fn carried_list(twin: &Twin) -> Html {
    let b = twin.service_b;
    html! {
        <section class="card compare-carried" data-testid="compare-carried">
            <h2>{ format!("What each intervention became on {}", b.label()) }</h2>
            if twin.carried.is_empty() {
                <p class="muted">{ "No interventions: both runs have the same clients, resource, network and seed, and nothing else." }</p>
            }
            <ol>
                { for twin.carried.iter().map(|carried| carried_item(carried, twin)) }
            </ol>
            if !twin.settings_dropped.is_empty() {
                <p>{ "Settings not carried over:" }</p>
                <ul>
                    { for twin.settings_dropped.iter().map(|s| html! { <li>{ s.clone() }</li> }) }
                </ul>
            }
        </section>
    }
}

/// The roles of the service's nodes among `targets`, in `service`'s words (a client or the
/// resource is the same on both sides and already named by the intervention).
fn roles(targets: &[Target], service: ChaosBackend) -> String {
    targets
        .iter()
        .filter(|t| matches!(t, Target::Service { .. }))
        .map(|t| t.describe(service))
        .collect::<Vec<_>>()
        .join("; ")
}

fn carried_item(carried: &Carried, twin: &Twin) -> Html {
    let on_a = &carried.on_a;
    let at = format!("{} ms", on_a.at_ms.0);
    let what_a = on_a.action.to_string();
    let roles_a = roles(&carried.roles, twin.service_a);
    let on_a_text = if roles_a.is_empty() {
        format!("{at}: {what_a}")
    } else {
        format!("{at}: {what_a} (on {}: {roles_a})", twin.service_a.label())
    };
    match &carried.onto_b {
        Carry::Mapped { intervention } => {
            let roles_b = roles(&carried.roles_b, twin.service_b);
            let became = if roles_b.is_empty() {
                intervention.action.to_string()
            } else {
                format!("{} ({roles_b})", intervention.action)
            };
            html! {
                <li data-testid="carried-mapped">
                    { on_a_text }{ " → " }{ became }
                </li>
            }
        }
        Carry::NoCounterpart { reason } => html! {
            <li data-testid="carried-none">
                { on_a_text }{ format!(" → no counterpart on {}: {reason}", twin.service_b.label()) }
            </li>
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_reads_back_as_itself() {
        let mut all = vec![Compare::Off, Compare::Fencing];
        all.extend(ChaosBackend::ALL.map(Compare::Service));
        all.extend(catalogue::INDEX.iter().map(|e| Compare::Scenario(e.id)));
        for compare in all {
            assert_eq!(compare_of(value_of(compare)), compare);
        }
    }
}
