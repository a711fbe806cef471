//! The action panel: what the user can do to whatever they selected on the timeline — a client,
//! a lock service node, the resource, or a message in flight — and the list of their
//! interventions so far, each of which can be taken back.
//!
//! Every button dispatches one [`Action::Intervene`] (or `SetFencing`); the reducer logs it at
//! the current moment and replays. Nothing here changes the run itself.

use crate::components::{Current, Shared};
use crate::run::Run;
use crate::state::{Action, Selection};
use lockstep_sim::engine::sim::Process;
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::types::LockServiceSpec;
use lockstep_sim::vocabulary::happening::Direction;
use lockstep_sim::world::ids::{MessageId, NodeId};
use lockstep_sim::world::intervention::{Action as Act, Intervention};
use lockstep_sim::world::network::MessageStatus;
use lockstep_sim::world::time::Millis;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// The panel reads the playground as it stands, and renders again only when what it shows may
/// have changed: the selection, the interventions, and, while something is selected, the moment
/// (a selected client's buttons depend on whether it is paused or crashed there). With nothing
/// selected, a Step does not render it again.
#[derive(Properties, PartialEq)]
pub struct ActionsProps {
    pub playground: Current,
    pub selection: Selection,
    pub log: Shared<Vec<Intervention<String>>>,
    /// The run and position shown, while something is selected.
    pub moment: Option<(Shared<Run>, usize)>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn Actions(props: &ActionsProps) -> Html {
    let playground = &props.playground;
    let pause_ms = use_state(|| 2000u64);
    let jump_ms = use_state(|| 1000i64);
    let peer = use_state(|| None::<NodeId>);
    let one_way = use_state(|| false);
    let body = match playground.selection() {
        Selection::Nothing => html! {
            <p class="muted" data-testid="actions-hint">
                { "Select a lane's name (a client, a lock service node, the resource) or a message \
                   in flight on the timeline to act on it. Whatever you do happens just after the \
                   current event; stepping back and acting again forks the run." }
            </p>
        },
        Selection::Node(node) => node_actions(props, node, &pause_ms, &jump_ms, &peer, &one_way),
        Selection::Message(message) => message_actions(props, message),
    };
    html! {
        <section class="card actions" data-testid="actions" aria-label="Act on the run">
            <h2>{ "Act" }</h2>
            { body }
            { log_list(props) }
        </section>
    }
}

fn intervene(dispatch: &Callback<Action>, act: Act<String>) -> Callback<MouseEvent> {
    let dispatch = dispatch.clone();
    Callback::from(move |_: MouseEvent| dispatch.emit(Action::Intervene(act.clone())))
}

fn button(testid: &'static str, label: String, onclick: Callback<MouseEvent>) -> Html {
    html! {
        <button type="button" class="act" data-testid={testid} {onclick}>{ label }</button>
    }
}

fn node_actions(
    props: &ActionsProps,
    node: NodeId,
    pause_ms: &UseStateHandle<u64>,
    jump_ms: &UseStateHandle<i64>,
    peer: &UseStateHandle<Option<NodeId>>,
    one_way: &UseStateHandle<bool>,
) -> Html {
    let playground = &props.playground;
    let sim = playground.sim();
    let cast = sim.cast();
    let name = cast.name(node).to_owned();
    let process = sim.slot(node).map_or(Process::Running, |s| s.process);
    let d = &props.dispatch;
    let n = || name.clone();
    let mut buttons = Vec::new();
    let is_resource = node == cast.resource();
    if !is_resource {
        buttons.extend(pause_buttons(d, &name, process, **pause_ms));
    }
    // The resource crashes and restarts too: a storage server loses only what it kept in memory.
    buttons.push(crash_button(d, &name, process));
    if !is_resource {
        buttons.push(button(
            "act-clock-jump",
            format!("Jump its clock {:+} ms", **jump_ms),
            intervene(
                d,
                Act::ClockJump {
                    node: n(),
                    by_ms: **jump_ms,
                },
            ),
        ));
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
        let next = if fencing == Fencing::Off {
            Fencing::On
        } else {
            Fencing::Off
        };
        let dispatch = d.clone();
        buttons.push(html! {
            <button type="button" class="act" data-testid="act-fencing" aria-pressed={(fencing != Fencing::Off).to_string()}
                onclick={Callback::from(move |_: MouseEvent| dispatch.emit(Action::SetFencing(next)))}>
                { format!("Fencing: {} — switch {}", crate::link::fencing_word(fencing),
                    if next == Fencing::Off { "off" } else { "on" }) }
            </button>
        });
    }
    let others: Vec<NodeId> = cast.nodes().filter(|&o| o != node).collect();
    let chosen_peer = peer
        .filter(|p| others.contains(p))
        .or(others.first().copied());
    let on_pause_ms = number_input(pause_ms.clone());
    let on_jump_ms = {
        let jump_ms = jump_ms.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            if let Ok(v) = input.value().parse::<i64>() {
                jump_ms.set(v);
            }
        })
    };
    let on_peer = {
        let peer = peer.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            peer.set(select.value().parse::<u16>().ok().map(NodeId));
        })
    };
    let on_one_way = {
        let one_way = one_way.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            one_way.set(input.checked());
        })
    };
    let partition = chosen_peer.map(|to| {
        let direction = if **one_way {
            Direction::OneWay
        } else {
            Direction::Both
        };
        let to_name = cast.name(to).to_owned();
        html! {
            <div class="act-row">
                { button("act-partition", format!("Cut the link to {to_name}"),
                    intervene(d, Act::Partition { from: n(), to: to_name.clone(), direction })) }
                { button("act-heal", format!("Heal the link to {to_name}"),
                    intervene(d, Act::Heal { a: n(), b: to_name })) }
            </div>
        }
    });
    html! {
        <div data-testid="node-actions" data-node={name.clone()}>
            <p class="selected-name">{ format!("{name} · {}", crate::words::lane_badge(sim, node)) }</p>
            <div class="act-grid">{ for buttons }</div>
            if !is_resource {
                <div class="act-settings">
                    <label>{ "Pause length (ms) " }
                        <input type="number" min="1" step="100" data-testid="pause-ms" value={pause_ms.to_string()} onchange={on_pause_ms} />
                    </label>
                    <label>{ "Clock jump (ms, negative: back) " }
                        <input type="number" step="100" data-testid="jump-ms" value={jump_ms.to_string()} onchange={on_jump_ms} />
                    </label>
                </div>
            }
            <fieldset class="partition">
                <legend>{ "Network" }</legend>
                <label>{ "Link to " }
                    <select data-testid="partition-peer" onchange={on_peer}>
                        { for others.iter().map(|o| html! {
                            <option value={o.0.to_string()} selected={Some(*o) == chosen_peer}>{ cast.name(*o).to_owned() }</option>
                        }) }
                    </select>
                </label>
                <label class="check">
                    <input type="checkbox" data-testid="one-way" checked={**one_way} onchange={on_one_way} />
                    { format!(" one-way (only {name} → peer is cut)") }
                </label>
                { for partition }
            </fieldset>
            if cast.is_service(node) && matches!(playground.scenario().map(|s| &s.lock_service), Some(LockServiceSpec::Consensus { .. })) {
                <p class="muted">{ "To fail over a consensus service, crash its leader: the others elect a new one." }</p>
            }
        </div>
    }
}

/// Pause (for the chosen length, or until resumed) a running process; resume a paused one.
fn pause_buttons(d: &Callback<Action>, name: &str, process: Process, pause_ms: u64) -> Vec<Html> {
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
            button(
                "act-pause",
                format!("Pause {name} for {pause_ms} ms"),
                pause(Some(Millis(pause_ms))),
            ),
            button(
                "act-pause-until-resumed",
                "Pause until resumed".to_owned(),
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

fn message_actions(props: &ActionsProps, message: MessageId) -> Html {
    let sim = props.playground.sim();
    let cast = sim.cast();
    let Some(record) = sim.network().message(message) else {
        return html! { <p class="muted">{ "That message has not been sent at this point of the run." }</p> };
    };
    let d = &props.dispatch;
    let status = match record.status {
        MessageStatus::InFlight => "in flight",
        MessageStatus::Held { .. } => "held",
        MessageStatus::Delivered { .. } => "delivered",
        MessageStatus::Lost { .. } => "lost",
    };
    let mut buttons = Vec::new();
    match record.status {
        MessageStatus::InFlight => {
            buttons.push(button(
                "act-hold",
                "Hold it".to_owned(),
                intervene(d, Act::Hold { message }),
            ));
            buttons.push(button(
                "act-drop",
                "Drop it".to_owned(),
                intervene(d, Act::Drop { message }),
            ));
        }
        MessageStatus::Held { .. } => {
            buttons.push(button(
                "act-release",
                "Release it".to_owned(),
                intervene(d, Act::Release { message }),
            ));
            buttons.push(button(
                "act-drop",
                "Drop it".to_owned(),
                intervene(d, Act::Drop { message }),
            ));
        }
        MessageStatus::Delivered { .. } | MessageStatus::Lost { .. } => {}
    }
    html! {
        <div data-testid="message-actions" data-message-id={message.0.to_string()}>
            <p class="selected-name">
                { format!("message {}: {} from {} to {}, {status}", message.0, record.payload.label(),
                    cast.name(record.from), cast.name(record.to)) }
            </p>
            <p class="muted">{ format!("sent at {} ms, due at {} ms", record.sent_at.0, record.due_at.0) }</p>
            <div class="act-grid">{ for buttons }</div>
        </div>
    }
}

fn log_list(props: &ActionsProps) -> Html {
    let log = props.playground.log();
    if log.is_empty() {
        return html! {};
    }
    html! {
        <div class="log-list">
            <h3>{ "Your interventions" }</h3>
            <ol data-testid="intervention-log">
                { for log.iter().enumerate().map(|(index, entry)| {
                    let dispatch = props.dispatch.clone();
                    let onclick = Callback::from(move |_: MouseEvent| dispatch.emit(Action::Forget(index)));
                    html! {
                        <li data-testid="logged-intervention">
                            <span class="mono">{ format!("{} ms", entry.at_ms.0) }</span>
                            { " " }{ entry.action.to_string() }{ " " }
                            <button type="button" class="link" {onclick}
                                aria-label={format!("Take back: {}", entry.action)}>{ "take back" }</button>
                        </li>
                    }
                }) }
            </ol>
        </div>
    }
}
