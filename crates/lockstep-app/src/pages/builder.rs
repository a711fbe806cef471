//! The "build your own" form: clients, behaviour, backend, fencing, TTL, work, latency, seed and
//! run length. "Run it" imports the scenario file the settings make, through the same checks as
//! any file, so a bad value comes back as a message naming the field.

use crate::state::Action;
use lockstep_sim::scenario::types::MAX_END_MS;
use lockstep_view::builder::{
    BackendChoice, Behaviour, FORM_MAX_CLIENTS, MAX_FORM_LATENCY_MS, MAX_FORM_MS, Settings,
    clients_from_form,
};
use strum::VariantArray;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct BuilderFormProps {
    pub dispatch: Callback<Action>,
    pub on_close: Callback<()>,
}

#[component]
pub fn BuilderForm(props: &BuilderFormProps) -> Html {
    let settings = use_state(Settings::default);
    let number = |apply: fn(&mut Settings, u64)| set_number(&settings, apply);
    let onsubmit = {
        let settings = settings.clone();
        let dispatch = props.dispatch.clone();
        let on_close = props.on_close.clone();
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            crate::platform::library::import(settings.to_json(), dispatch.clone());
            on_close.emit(());
        })
    };
    let close = props.on_close.reform(|_: MouseEvent| ());
    let s = &*settings;
    html! {
        <div class="dialog-backdrop">
            <form class="dialog builder" role="dialog" aria-modal="true" aria-labelledby="builder-title"
                data-testid="builder" {onsubmit}>
                <h2 id="builder-title">{ "Build a scenario" }</h2>
                <p class="muted">{ "Clients take turns doing a job under the lock, again and again, \
                    retrying after a random delay when it is taken. Then pause, crash and cut them." }</p>
                { field(&format!("Clients (1–{FORM_MAX_CLIENTS})"), "build-clients", u64::from(s.clients), 1, u64::from(FORM_MAX_CLIENTS),
                    number(|s, v| s.clients = clients_from_form(v))) }
                { choices(&settings) }
                { field("Lease TTL (ms)", "build-ttl", s.ttl_ms, 1, MAX_FORM_MS, number(|s, v| s.ttl_ms = v)) }
                { field("Work per job (ms)", "build-work", s.work_ms, 0, MAX_FORM_MS, number(|s, v| s.work_ms = v)) }
                { field("Network latency from (ms)", "build-latency-min", s.latency_min_ms, 0, MAX_FORM_LATENCY_MS, number(|s, v| s.latency_min_ms = v)) }
                { field("to (ms)", "build-latency-max", s.latency_max_ms, 0, MAX_FORM_LATENCY_MS, number(|s, v| s.latency_max_ms = v)) }
                { field("Seed", "build-seed", s.seed, 0, u64::MAX, number(|s, v| s.seed = v)) }
                { field("Run length (ms)", "build-run", s.run_ms, 1, MAX_END_MS, number(|s, v| s.run_ms = v)) }
                <div class="dialog-buttons">
                    <button type="button" class="tool" onclick={close}>{ "Cancel" }</button>
                    <button type="submit" class="control primary" data-testid="build-run-it">{ "Run it" }</button>
                </div>
            </form>
        </div>
    }
}

/// The behaviour and lock service menus and the fencing checkbox.
fn choices(settings: &UseStateHandle<Settings>) -> Html {
    let on_behaviour = choice(
        settings.clone(),
        Behaviour::VARIANTS,
        Behaviour::id,
        |s, b| s.behaviour = b,
    );
    let on_backend = choice(
        settings.clone(),
        BackendChoice::VARIANTS,
        BackendChoice::id,
        |s, b| s.backend = b,
    );
    let on_fencing = {
        let settings = settings.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            settings.set(Settings {
                fencing: input.checked(),
                ..(*settings).clone()
            });
        })
    };
    let s = &**settings;
    html! {
        <>
            <label class="field">
                <span>{ "Behaviour" }</span>
                <select data-testid="build-behaviour" onchange={on_behaviour}>
                    { for Behaviour::VARIANTS.iter().map(|b| html! {
                        <option value={b.id()} selected={*b == s.behaviour}>{ b.label() }</option>
                    }) }
                </select>
            </label>
            <label class="field">
                <span>{ "Lock service" }</span>
                <select data-testid="build-backend" onchange={on_backend}>
                    { for BackendChoice::VARIANTS.iter().map(|b| html! {
                        <option value={b.id()} selected={*b == s.backend}>{ b.label() }</option>
                    }) }
                </select>
            </label>
            <label class="field check">
                <input type="checkbox" data-testid="build-fencing" checked={s.fencing} onchange={on_fencing} />
                <span>{ "The resource checks fencing tokens" }</span>
            </label>
        </>
    }
}

/// One number field.
fn field(
    label: &str,
    testid: &'static str,
    value: u64,
    min: u64,
    max: u64,
    onchange: Callback<Event>,
) -> Html {
    html! {
        <label class="field">
            <span>{ label }</span>
            <input type="number" data-testid={testid} value={value.to_string()}
                min={min.to_string()} max={max.to_string()} {onchange} />
        </label>
    }
}

/// A number field's change handler: a whole number, applied to the settings; anything else is
/// left as typed.
fn set_number(
    settings: &UseStateHandle<Settings>,
    apply: fn(&mut Settings, u64),
) -> Callback<Event> {
    let settings = settings.clone();
    Callback::from(move |event: Event| {
        let input: HtmlInputElement = event.target_unchecked_into();
        if let Ok(value) = input.value().trim().parse::<u64>() {
            let mut next = (*settings).clone();
            apply(&mut next, value);
            settings.set(next);
        }
    })
}

/// A menu's change handler: the option whose id the menu now shows, applied to the settings.
fn choice<T: Copy + 'static>(
    settings: UseStateHandle<Settings>,
    options: &'static [T],
    id: fn(T) -> &'static str,
    apply: fn(&mut Settings, T),
) -> Callback<Event> {
    Callback::from(move |event: Event| {
        let select: HtmlSelectElement = event.target_unchecked_into();
        if let Some(chosen) = options.iter().copied().find(|o| id(*o) == select.value()) {
            let mut next = (*settings).clone();
            apply(&mut next, chosen);
            settings.set(next);
        }
    })
}
