//! The chaos lab's settings: lock service, fencing, clients, faults, the run's length, how many
//! seeds and from which. Each change is emitted whole (a [`LabSpec`]); a number that cannot be
//! used is kept as typed and named beside its field, and the last good value stands.

use lockstep_sim::analysis::chaos::{
    ChaosBackend, ChaosSettings, ClientCount, DURATION_MS, FENCINGS, FaultKind, fencing_from_id,
    fencing_id, fencing_label,
};
use lockstep_sim::world::time::Millis;
use lockstep_view::link::lab::{LabSpec, MAX_RUNS, RunCount};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

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

/// `spec` with its settings changed by `change`.
fn with_settings(spec: LabSpec, change: impl FnOnce(&mut ChaosSettings)) -> LabSpec {
    let mut next = spec;
    change(&mut next.settings);
    next
}

/// One number field: its value, its range, and how a good value changes the spec.
struct NumberField {
    name: &'static str,
    label: &'static str,
    value: u64,
    low: u64,
    high: u64,
    set: fn(&mut LabSpec, u64),
}

/// Which number field holds a value that cannot be used, and why.
type Problem = UseStateHandle<Option<(&'static str, String)>>;

#[component]
pub fn LabForm(props: &LabFormProps) -> Html {
    let spec = props.spec;
    let problem = use_state(|| None::<(&'static str, String)>);
    let number = |field: NumberField| number_field(field, spec, &props.on_change, &problem);
    html! {
        <div class="lab-form" data-testid="lab-form">
            { service_fields(spec, &props.on_change) }
            { number(NumberField { name: "clients", label: "Clients", value: u64::from(spec.settings.clients.get()),
                low: u64::from(ClientCount::MIN), high: u64::from(ClientCount::MAX),
                set: |s, n| if let Some(count) = u8::try_from(n).ok().and_then(ClientCount::new) { s.settings.clients = count } }) }
            { number(NumberField { name: "duration", label: "Run length (virtual ms)", value: spec.settings.duration.0,
                low: DURATION_MS[0], high: DURATION_MS[1], set: |s, n| s.settings.duration = Millis(n) }) }
            { number(NumberField { name: "runs", label: "Seeds", value: spec.runs.0, low: 1, high: MAX_RUNS,
                set: |s, n| s.runs = RunCount(n) }) }
            { number(NumberField { name: "seed", label: "First seed", value: spec.first_seed, low: 0, high: u64::MAX,
                set: |s, n| s.first_seed = n }) }
            <fieldset class="lab-faults">
                <legend>{ "Faults" }</legend>
                { for FaultKind::ALL.into_iter().map(|kind| fault_check(kind, spec, &props.on_change)) }
            </fieldset>
        </div>
    }
}

/// The lock service and fencing choices.
fn service_fields(spec: LabSpec, on_change: &Callback<LabSpec>) -> Html {
    let on_backend = {
        let on_change = on_change.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            if let Some(backend) = ChaosBackend::from_id(&select.value()) {
                on_change.emit(with_settings(spec, |s| s.backend = backend));
            }
        })
    };
    let on_fencing = {
        let on_change = on_change.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            if let Some(fencing) = fencing_from_id(&select.value()) {
                on_change.emit(with_settings(spec, |s| s.fencing = fencing));
            }
        })
    };
    html! {
        <>
            <label class="lab-field">
                <span>{ "Lock service" }</span>
                <select data-testid="lab-backend" onchange={on_backend}>
                    { for ChaosBackend::ALL.iter().map(|b| html! {
                        <option value={b.id()} selected={*b == spec.settings.backend}>{ b.label() }</option>
                    }) }
                </select>
            </label>
            <label class="lab-field">
                <span>{ "Fencing" }</span>
                <select data-testid="lab-fencing" onchange={on_fencing}>
                    { for FENCINGS.iter().map(|f| html! {
                        <option value={fencing_id(*f)} selected={*f == spec.settings.fencing}>{ fencing_label(*f) }</option>
                    }) }
                </select>
            </label>
        </>
    }
}

/// One number field, with what is wrong with its value if it cannot be used.
fn number_field(
    field: NumberField,
    spec: LabSpec,
    on_change: &Callback<LabSpec>,
    problem: &Problem,
) -> Html {
    let NumberField {
        name,
        label,
        value,
        low,
        high,
        set,
    } = field;
    let on_change = on_change.clone();
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
    html! {
        <label class="lab-field">
            <span>{ label }</span>
            <input type="number" min={low.to_string()} max={high.to_string()} data-testid={format!("lab-{name}")}
                value={value.to_string()} {onchange} aria-invalid={wrong.is_some().then_some("true")} />
            if let Some(why) = wrong {
                <span class="field-problem" role="alert">{ format!("Must be {why}.") }</span>
            }
        </label>
    }
}

/// One fault kind's checkbox.
fn fault_check(kind: FaultKind, spec: LabSpec, on_change: &Callback<LabSpec>) -> Html {
    let on_change = on_change.clone();
    let checked = spec.settings.faults.contains(kind);
    let onchange = Callback::from(move |event: Event| {
        let input: HtmlInputElement = event.target_unchecked_into();
        let kinds: Vec<FaultKind> = FaultKind::ALL
            .into_iter()
            .filter(|k| {
                if *k == kind {
                    input.checked()
                } else {
                    spec.settings.faults.contains(*k)
                }
            })
            .collect();
        on_change.emit(with_settings(spec, |s| {
            s.faults = lockstep_sim::analysis::chaos::FaultSet::of(&kinds);
        }));
    });
    html! {
        <label class="lab-check">
            <input type="checkbox" data-testid={format!("lab-fault-{}", kind.id())} {checked} {onchange} />
            { kind.label() }
        </label>
    }
}
