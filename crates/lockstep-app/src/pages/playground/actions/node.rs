//! What the user can do to a selected node — a client, a lock service node, the resource:
//! pause, crash, jump its clock, expire or fail over the lease, switch fencing, cut its links.

use super::buttons::{Amount, amount_button, button, intervene};
use super::network::network_fieldset;
use crate::state::{Action, Playground};
use lockstep_sim::engine::sim::Process;
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::types::LockServiceSpec;
use lockstep_sim::world::ids::NodeId;
use lockstep_sim::world::intervention::Action as Act;
use lockstep_sim::world::time::Millis;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The panel for `node`; the pause length, clock jump (each set inside its button), peer and
/// direction are the panel's own settings, kept while the selection changes.
pub fn node_actions(
    playground: &Playground,
    dispatch: &Callback<Action>,
    node: NodeId,
    pause_ms: &UseStateHandle<u64>,
    jump_ms: &UseStateHandle<i64>,
    peer: &UseStateHandle<Option<NodeId>>,
    one_way: &UseStateHandle<bool>,
) -> Html {
    let sim = playground.sim();
    let cast = sim.cast();
    let name = cast.name(node).to_owned();
    html! {
        <div data-testid="node-actions" data-node={name.clone()}>
            <p class="selected-name">{ format!("{name} · {}", lockstep_view::words::lane_badge(sim, node)) }</p>
            <div class="act-grid">{ for node_buttons(playground, dispatch, node, pause_ms, jump_ms) }</div>
            { network_fieldset(dispatch, cast, node, peer, one_way) }
            if cast.is_service(node) && matches!(playground.scenario().map(|s| &s.lock_service), Some(LockServiceSpec::Consensus { .. })) {
                <p class="muted">{ "To fail over a consensus service, crash its leader: the others elect a new one." }</p>
            }
        </div>
    }
}

/// The buttons that act on `node` as it is at this moment.
fn node_buttons(
    playground: &Playground,
    d: &Callback<Action>,
    node: NodeId,
    pause_ms: &UseStateHandle<u64>,
    jump_ms: &UseStateHandle<i64>,
) -> Vec<Html> {
    let sim = playground.sim();
    let cast = sim.cast();
    let name = cast.name(node).to_owned();
    let process = sim.slot(node).map_or(Process::Running, |s| s.process);
    let mut buttons = Vec::new();
    let is_resource = node == cast.resource();
    if !is_resource {
        buttons.extend(pause_buttons(d, &name, process, pause_ms));
    }
    // The resource crashes and restarts too: a storage server loses only what it kept in memory.
    buttons.push(crash_button(d, &name, process));
    if !is_resource {
        buttons.push(clock_jump_button(d, &name, jump_ms));
    }
    if cast.is_service(node) {
        buttons.push(button(
            "act-force-expire",
            "Force the lease to expire now".to_owned(),
            intervene(d, Act::ForceExpire {}),
        ));
        if matches!(
            playground.scenario().map(|s| &s.lock_service),
            Some(LockServiceSpec::ReplicatedCache { .. })
        ) {
            buttons.push(button(
                "act-failover",
                "Fail over to the replica".to_owned(),
                intervene(d, Act::Failover {}),
            ));
        }
    }
    if is_resource && let Some(fencing) = playground.fencing() {
        buttons.push(fencing_button(d, fencing));
    }
    buttons
}

/// Switch the resource's fencing the other way.
fn fencing_button(d: &Callback<Action>, fencing: Fencing) -> Html {
    let next = if fencing == Fencing::Off {
        Fencing::On
    } else {
        Fencing::Off
    };
    let dispatch = d.clone();
    html! {
        <button type="button" class="act" data-testid="act-fencing" aria-pressed={(fencing != Fencing::Off).to_string()}
            onclick={Callback::from(move |_: MouseEvent| dispatch.emit(Action::SetFencing(next)))}>
            { format!("Fencing: {} — switch {}", lockstep_view::link::fencing::fencing_word(fencing),
                if next == Fencing::Off { "off" } else { "on" }) }
        </button>
    }
}

/// Jump `name`'s clock by the amount set inside the button (negative: back).
fn clock_jump_button(d: &Callback<Action>, name: &str, jump_ms: &UseStateHandle<i64>) -> Html {
    let on_jump_ms = {
        let jump_ms = jump_ms.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            if let Ok(v) = input.value().parse::<i64>() {
                jump_ms.set(v);
            }
        })
    };
    let by_ms = **jump_ms;
    amount_button(
        "act-clock-jump",
        (
            "Jump its clock by".to_owned(),
            format!("Jump its clock by {by_ms:+} ms"),
        ),
        Amount {
            testid: "jump-ms",
            value: by_ms.to_string(),
            name: "Clock jump in ms (negative: back)",
            min: None,
            onchange: on_jump_ms,
        },
        intervene(
            d,
            Act::ClockJump {
                node: name.to_owned(),
                by_ms,
            },
        ),
    )
}

/// Pause a running process for the chosen length, as a GC pause does, or freeze it until the
/// user resumes it (it never wakes by itself, so its late write waits on the user); resume a
/// paused one.
fn pause_buttons(
    d: &Callback<Action>,
    name: &str,
    process: Process,
    pause_ms: &UseStateHandle<u64>,
) -> Vec<Html> {
    let for_ms = **pause_ms;
    let pause = |for_ms| {
        intervene(
            d,
            Act::Pause {
                node: name.to_owned(),
                for_ms,
            },
        )
    };
    match process {
        Process::Paused { .. } => vec![button(
            "act-resume",
            format!("Resume {name}"),
            intervene(
                d,
                Act::Resume {
                    node: name.to_owned(),
                },
            ),
        )],
        Process::Running => vec![
            amount_button(
                "act-pause",
                (
                    format!("Pause {name} for"),
                    format!("Pause {name} for {for_ms} ms"),
                ),
                Amount {
                    testid: "pause-ms",
                    value: for_ms.to_string(),
                    name: "Pause length in ms",
                    min: Some("1"),
                    onchange: number_input(pause_ms.clone()),
                },
                pause(Some(Millis(for_ms))),
            ),
            button(
                "act-pause-until-resumed",
                "Freeze until I resume it".to_owned(),
                pause(None),
            ),
        ],
        Process::Crashed { .. } => Vec::new(),
    }
}

/// Crash a process that is up, restart one that is down.
fn crash_button(d: &Callback<Action>, name: &str, process: Process) -> Html {
    let node = name.to_owned();
    match process {
        Process::Crashed { .. } => button(
            "act-restart",
            format!("Restart {name}"),
            intervene(d, Act::Restart { node }),
        ),
        Process::Running | Process::Paused { .. } => button(
            "act-crash",
            format!("Crash {name}"),
            intervene(d, Act::Crash { node }),
        ),
    }
}

fn number_input(state: UseStateHandle<u64>) -> Callback<Event> {
    Callback::from(move |event: Event| {
        let input: HtmlInputElement = event.target_unchecked_into();
        if let Ok(v) = input.value().parse::<u64>()
            && v > 0
        {
            state.set(v);
        }
    })
}
