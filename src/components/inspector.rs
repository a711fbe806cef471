//! The inspector: the lock service's row as the seed's SQL shows it, the resource's row, each
//! client's state, and every invariant's verdict at the current step.

use crate::state::Playground;
use lockstep_sim::client::{Client, ClientState};
use lockstep_sim::invariant::{Invariant, InvariantSet};
use lockstep_sim::lock_service::Backend;
use lockstep_sim::resource::{Fencing, Resource};
use lockstep_sim::scenario::Cast;
use lockstep_sim::sim::{Node, Process};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct InspectorProps {
    pub playground: UseReducerHandle<Playground>,
}

#[component]
pub fn Inspector(props: &InspectorProps) -> Html {
    let sim = props.playground.sim();
    let cast = sim.cast();
    let violated = sim
        .trace()
        .last()
        .map_or(InvariantSet::EMPTY, |e| e.violated);
    let mut lock_row = Html::default();
    let mut resource_row = Html::default();
    let mut clients = Vec::new();
    for node in cast.nodes() {
        let Some(slot) = sim.slot(node) else { continue };
        let local = slot.clock.read(sim.now()).0;
        match &slot.node {
            Node::LockService(service) => {
                let Backend::SqlRow(row) = &service.backend;
                let holder = row.holder_id.map_or("NULL".to_owned(), |h| cast.name(h).to_owned());
                let expires = row.expires_at.map_or("NULL".to_owned(), |t| format!("{} ms", t.0));
                let live = row.live_holder(slot.clock.read(sim.now())).is_some();
                lock_row = html! {
                    <section class="card" data-testid="lock-row">
                        <h2>{ "distributed_locks" }</h2>
                        <table class="sql-row">
                            <tr><th>{ "lock_name" }</th><td>{ row.lock_name.clone() }</td></tr>
                            <tr><th>{ "holder_id" }</th><td data-testid="lock-holder">{ holder }</td></tr>
                            <tr><th>{ "fencing_token" }</th><td data-testid="lock-token">{ row.fencing_token.0 }</td></tr>
                            <tr><th>{ "expires_at" }</th><td>{ expires }</td></tr>
                        </table>
                        <p class="muted">{ format!("service clock {local} ms · lease {}", if live { "live" } else { "not live" }) }</p>
                    </section>
                };
            }
            Node::Resource(Resource::Register(register)) => {
                let highest = register.highest_token.map_or("NULL".to_owned(), |t| t.0.to_string());
                let fencing = match register.fencing {
                    Fencing::On => "on: accepts token ≥ highest seen",
                    Fencing::Off => "off: accepts every write",
                };
                resource_row = html! {
                    <section class="card" data-testid="resource-row">
                        <h2>{ cast.name(Cast::RESOURCE).to_owned() }</h2>
                        <table class="sql-row">
                            <tr><th>{ "value" }</th><td data-testid="resource-value">{ register.value }</td></tr>
                            <tr><th>{ "version" }</th><td>{ register.version }</td></tr>
                            <tr><th>{ "fencing_token" }</th><td>{ highest }</td></tr>
                        </table>
                        <p class="muted">{ format!("fencing {fencing}") }</p>
                    </section>
                };
            }
            Node::Client(client) => clients.push(html! {
                <tr data-testid="client-row">
                    <th>{ cast.name(node).to_owned() }</th>
                    <td>{ process_word(slot.process) }</td>
                    <td>{ client_state_word(client) }</td>
                    <td class="mono">{ client.token().map_or("—".to_owned(), |t| t.0.to_string()) }</td>
                    <td>{ if client.believes_it_holds_the_lock() { "yes" } else { "no" } }</td>
                </tr>
            }),
        }
    }
    html! {
        <div class="inspector">
            { lock_row }
            { resource_row }
            <section class="card">
                <h2>{ "Clients" }</h2>
                <table class="clients">
                    <tr><th>{ "" }</th><th>{ "process" }</th><th>{ "state" }</th><th>{ "token" }</th><th>{ "believes it holds" }</th></tr>
                    { for clients }
                </table>
            </section>
            <section class="card" data-testid="invariants">
                <h2>{ "Invariants now" }</h2>
                <ul class="invariants">
                    { for Invariant::ALL.iter().map(|&invariant| {
                        let broken = violated.contains(invariant);
                        html! {
                            <li class={classes!("invariant", broken.then_some("broken"))}
                                data-invariant={invariant.id()}>
                                <span class="verdict" aria-hidden="true">{ if broken { "✗" } else { "✓" } }</span>
                                <span class="visually-hidden">{ if broken { "violated: " } else { "holds: " } }</span>
                                { invariant.statement() }
                            </li>
                        }
                    }) }
                </ul>
            </section>
        </div>
    }
}

fn process_word(process: Process) -> &'static str {
    match process {
        Process::Running => "running",
        Process::Paused { .. } => "paused",
        Process::Crashed { .. } => "crashed",
    }
}

fn client_state_word(client: &Client) -> &'static str {
    match client.state {
        ClientState::NotStarted => "not started",
        ClientState::Acquiring => "acquiring",
        ClientState::Reading { .. } => "reading",
        ClientState::Working { .. } => "working",
        ClientState::Writing { .. } => "writing",
        ClientState::Releasing { .. } => "releasing",
        ClientState::Backoff { .. } => "waiting to retry",
        ClientState::Finished { .. } => "finished",
        ClientState::Crashed => "crashed",
    }
}
