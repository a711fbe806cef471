//! The chaos lab's settings: lock service, fencing, clients, how many seeds and from which.
//! Each change is emitted whole (a [`LabSpec`]); a number that cannot be used is kept as typed
//! and named beside its field, and the last good value stands.

use crate::lab_engine::{ChaosBackend, ClientCount};
use crate::lab_link::{LabSpec, MAX_CLIENTS, MAX_RUNS, RunCount};
use lockstep_sim::resource::Fencing;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// A lock service's name in the lab.
pub fn backend_label(backend: ChaosBackend) -> &'static str {
    match backend {
        ChaosBackend::SqlRow => "SQL row (the article's)",
        ChaosBackend::Redlock => "Redlock, 5 nodes",
        ChaosBackend::Consensus => "Consensus, 3 replicas",
    }
}

#[derive(Properties, PartialEq)]
pub struct LabFormProps {
    pub spec: LabSpec,
    pub on_change: Callback<LabSpec>,
}

/// A whole number from `low` to `high` typed into a field, or why not.
fn whole(text: &str, low: u64, high: u64) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if (low..=high).contains(&n) => Ok(n),
        _ => Err(format!("a whole number from {low} to {high}")),
    }
}

#[component]
pub fn LabForm(props: &LabFormProps) -> Html {
    let spec = props.spec;
    let problem = use_state(|| None::<(&'static str, String)>);
    let number_field = |name: &'static str,
                        label: &'static str,
                        value: u64,
                        low: u64,
                        high: u64,
                        set: fn(&mut LabSpec, u64)| {
        let on_change = props.on_change.clone();
        let problem_handle = problem.clone();
        let onchange = Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            match whole(&input.value(), low, high) {
                Ok(n) => {
                    problem_handle.set(None);
                    let mut next = spec;
                    set(&mut next, n);
                    on_change.emit(next);
                }
                Err(why) => problem_handle.set(Some((name, why))),
            }
        });
        let wrong = problem
            .as_ref()
            .filter(|(n, _)| *n == name)
            .map(|(_, why)| why.clone());
        let id = format!("lab-{name}");
        html! {
            <label class="lab-field">
                <span>{ label }</span>
                <input type="number" min={low.to_string()} max={high.to_string()} data-testid={id.clone()}
                    value={value.to_string()} {onchange} aria-invalid={wrong.is_some().then_some("true")} />
                if let Some(why) = wrong {
                    <span class="field-problem" role="alert">{ format!("Must be {why}.") }</span>
                }
            </label>
        }
    };
    let on_backend = {
        let on_change = props.on_change.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            if let Some(backend) = ChaosBackend::from_id(&select.value()) {
                on_change.emit(LabSpec {
                    settings: lockstep_settings(spec, |s| s.backend = backend),
                    ..spec
                });
            }
        })
    };
    let on_fencing = {
        let on_change = props.on_change.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            let fencing = if select.value() == "off" {
                Fencing::Off
            } else {
                Fencing::On
            };
            on_change.emit(LabSpec {
                settings: lockstep_settings(spec, |s| s.fencing = fencing),
                ..spec
            });
        })
    };
    let fencing_off = spec.settings.fencing == Fencing::Off;
    html! {
        <fieldset class="lab-form" data-testid="lab-form">
            <legend class="visually-hidden">{ "Settings" }</legend>
            <label class="lab-field">
                <span>{ "Lock service" }</span>
                <select data-testid="lab-backend" onchange={on_backend}>
                    { for ChaosBackend::ALL.iter().map(|b| html! {
                        <option value={b.id()} selected={*b == spec.settings.backend}>{ backend_label(*b) }</option>
                    }) }
                </select>
            </label>
            <label class="lab-field">
                <span>{ "Fencing" }</span>
                <select data-testid="lab-fencing" onchange={on_fencing}>
                    <option value="on" selected={!fencing_off}>{ "on" }</option>
                    <option value="off" selected={fencing_off}>{ "off" }</option>
                </select>
            </label>
            { number_field("clients", "Clients", u64::from(spec.settings.clients.0), 1, u64::from(MAX_CLIENTS),
                |s, n| s.settings.clients = ClientCount(u8::try_from(n).unwrap_or(MAX_CLIENTS))) }
            { number_field("runs", "Seeds", spec.runs.0, 1, MAX_RUNS, |s, n| s.runs = RunCount(n)) }
            { number_field("seed", "First seed", spec.first_seed, 0, u64::MAX, |s, n| s.first_seed = n) }
        </fieldset>
    }
}

/// `spec`'s settings with one change.
fn lockstep_settings(
    spec: LabSpec,
    change: impl FnOnce(&mut crate::lab_engine::ChaosSettings),
) -> crate::lab_engine::ChaosSettings {
    let mut settings = spec.settings;
    change(&mut settings);
    settings
}
