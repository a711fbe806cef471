//! The inspector: the lock service's state as its storage shows it (the article's
//! `distributed_locks` row, or the cache key), the resource's row, each client's state, and every
//! invariant's verdict at the current step.

use crate::components::Shared;
use lockstep_sim::engine::sim::{Node, Process, Sim};
use lockstep_sim::models::client::{Client, Renewal};
use lockstep_sim::models::lock_service::{LockService, NodeRole, Record, Storage};
use lockstep_sim::models::resource::{Fencing, Resource, TokenMemory};
use lockstep_sim::scenario::cast::Cast;
use lockstep_sim::vocabulary::invariant::InvariantSet;
use lockstep_sim::vocabulary::invariant::{Concern, Invariant};
use lockstep_sim::vocabulary::lock_value::LockValue;
use lockstep_sim::world::ids::NodeId;
use lockstep_sim::world::network::MessageStatus;
use lockstep_sim::world::time::LocalTime;
use lockstep_view::words::{
    client_state_word, held_safely_words, process_word, role_word, token_text,
};
use yew::prelude::*;

/// Only the simulation at the shown position: selecting, notices, speed and play do not
/// render the inspector again.
#[derive(Properties, PartialEq)]
pub struct InspectorProps {
    pub sim: Shared<Sim>,
}

#[component]
pub fn Inspector(props: &InspectorProps) -> Html {
    let sim = &*props.sim;
    let cast = sim.cast();
    let violated = sim
        .trace()
        .last()
        .map_or(InvariantSet::EMPTY, |e| e.violated);
    let mut cards = Vec::new();
    let mut clients = Vec::new();
    for node in cast.nodes() {
        let Some(slot) = sim.slot(node) else { continue };
        let local = slot.local_time(sim.now());
        match &slot.node {
            Node::LockService(service) => {
                cards.push(lock_card(node, service, local, slot.process, cast))
            }
            Node::Resource(resource) => cards.push(resource_card(resource, cast)),
            Node::Client(client) => {
                clients.push(client_card(node, client, local, slot.process, cast))
            }
        }
    }
    html! {
        <div class="inspector">
            { for cards }
            { for clients }
            { network_card(sim) }
            <section class="card" data-testid="invariants">
                <h2>{ "invariants now" }</h2>
                { invariant_list(violated) }
            </section>
        </div>
    }
}

/// A card showing one table row as `column: value` lines, as a database client would, and a
/// note under it.
fn row_card(
    testid: &'static str,
    title: String,
    columns: Vec<(&'static str, String)>,
    note: String,
) -> Html {
    html! {
        <section class="card" data-testid={testid}>
            <RowTable {title} {columns} />
            <p class="muted">{ note }</p>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct RowTableProps {
    title: String,
    columns: Vec<(&'static str, String)>,
}

/// A card's heading and row. A component of its own: a step changes every node's clock (in the
/// notes) but few rows, and the rows that stay are compared, not drawn again.
#[component]
fn RowTable(props: &RowTableProps) -> Html {
    html! {
        <>
            <h2>{ props.title.clone() }</h2>
            // The `<tbody>` a parser adds to a page's table: the build's page is parsed, the app's
            // is built, and the two must be the same tree.
            <table class="sql-row"><tbody>
                { for props.columns.iter().map(|(column, value)| html! {
                    <tr><th>{ *column }</th><td data-column={*column}>{ value.clone() }</td></tr>
                }) }
            </tbody></table>
        </>
    }
}

/// A lock service node's card: its storage as that backend keeps it, with its process, clock
/// and whether its lease is live. It reads the node's role, record and storage, never the
/// backend's fields.
fn lock_card(
    node: NodeId,
    service: &LockService,
    local: LocalTime,
    process: Process,
    cast: &Cast,
) -> Html {
    let live = if service.live_lease(local).is_some() {
        "live"
    } else {
        "not live"
    };
    let note = format!(
        "{} · clock {} ms · lease {live}",
        process_word(process),
        local.0
    );
    let record = service.record(local);
    match service.storage(local) {
        Storage::Row {
            lock_name,
            fencing_token,
            expires_at,
        } => row_card(
            "lock-row",
            "distributed_locks".to_owned(),
            vec![
                ("lock_name", lock_name.to_owned()),
                ("holder_id", holder_name(record, cast, "NULL")),
                ("fencing_token", fencing_token.0.to_string()),
                (
                    "expires_at",
                    expires_at.map_or("NULL".to_owned(), |t| format!("{} ms", t.0)),
                ),
            ],
            note,
        ),
        Storage::Key { key, entry } => {
            // A crashed node serves no one, whatever role its state last had.
            let role = match (process, role_word(service.role())) {
                (Process::Crashed { .. }, _) => " (crashed)".to_owned(),
                (_, Some(word)) => format!(" ({word})"),
                (_, None) => String::new(),
            };
            let heading = format!("{}{role}: key {key}", cast.name(node));
            key_card(heading, record, entry, cast, note)
        }
        Storage::Log {
            entries,
            committed,
            revision,
            waiting,
        } => row_card(
            "lock-row",
            replica_heading(node, service.role(), process, cast),
            vec![
                (
                    "holder",
                    record.holder().map_or("—".to_owned(), |holder| {
                        format!(
                            "{} (revision {})",
                            cast.name(holder),
                            token_text(record.token(), "—")
                        )
                    }),
                ),
                ("log", format!("{entries} entries, {committed} committed")),
                ("revision", revision.0.to_string()),
                ("queue", waiting.to_string()),
            ],
            note,
        ),
    }
}

/// The name of the client a record names, or `none`.
fn holder_name(record: Record, cast: &Cast, none: &str) -> String {
    record
        .holder()
        .map_or_else(|| none.to_owned(), |h| cast.name(h).to_owned())
}

/// A consensus replica's heading: its role and term. A crashed replica keeps the state it had,
/// but it is no longer anyone's leader.
fn replica_heading(node: NodeId, role: NodeRole, process: Process, cast: &Cast) -> String {
    // Every consensus replica's role has a word and a term.
    let (Some(word), Some(term)) = (role_word(role), role.term()) else {
        return cast.name(node).to_owned();
    };
    match process {
        Process::Crashed { .. } => format!(
            "{} (crashed; it was a {word} in term {term})",
            cast.name(node)
        ),
        Process::Running | Process::Paused { .. } => {
            format!("{} ({word}, term {term})", cast.name(node))
        }
    }
}

/// A cache's key, as the entry live at the node's clock holds it: its value and expiry from the
/// storage, who set it and the token from the record.
fn key_card(
    heading: String,
    record: Record,
    entry: Option<(LockValue, LocalTime)>,
    cast: &Cast,
    note: String,
) -> Html {
    let token = match record {
        Record::Key { token, .. } => token_text(token, "none"),
        Record::Empty | Record::Row { .. } | Record::LowestKey { .. } => "—".to_owned(),
    };
    row_card(
        "lock-row",
        heading,
        vec![
            (
                "value",
                entry.map_or("(nil)".to_owned(), |(value, _)| value.to_string()),
            ),
            ("set by", holder_name(record, cast, "—")),
            (
                "expires at",
                entry.map_or("—".to_owned(), |(_, at)| format!("{} ms", at.0)),
            ),
            ("token", token),
        ],
        note,
    )
}

fn resource_card(resource: &Resource, cast: &Cast) -> Html {
    let title = cast.name(cast.resource()).to_owned();
    match resource {
        Resource::Register(register) => row_card(
            "resource-row",
            title,
            vec![
                ("value", register.value.to_string()),
                ("version", register.version.to_string()),
                ("fencing_token", token_text(register.highest_token, "NULL")),
            ],
            match register.token_memory {
                TokenMemory::Durable => fencing_note(register.fencing),
                TokenMemory::Volatile => format!(
                    "{}; the highest token is kept in memory only, so a crash forgets it",
                    fencing_note(register.fencing)
                ),
            },
        ),
        Resource::Inventory(inventory) => row_card(
            "resource-row",
            format!("{title}: inventory"),
            vec![
                ("sku", inventory.sku.clone()),
                ("quantity", inventory.quantity.to_string()),
                ("fencing_token", token_text(inventory.fencing_token, "NULL")),
            ],
            fencing_note(inventory.fencing),
        ),
        Resource::Payments(payments) => row_card(
            "resource-row",
            format!("{title}: payments"),
            vec![
                ("charged", payments.total.to_string()),
                ("requests", payments.charged.len().to_string()),
            ],
            "saves the answer to each idempotency key".to_owned(),
        ),
    }
}

fn fencing_note(fencing: Fencing) -> String {
    match fencing {
        Fencing::On => "fencing on: accepts token ≥ highest seen".to_owned(),
        Fencing::Off => "fencing off: accepts every token".to_owned(),
        Fencing::Sequencer => {
            "sequencer: asks the lock service about every token, and rejects lower tokens"
                .to_owned()
        }
        Fencing::CheckAndSet => {
            "check-and-set: accepts only the last claimant's lock value".to_owned()
        }
    }
}

/// Every invariant with ✓ (holds) or ✗ (violated) after the shown events.
pub fn invariant_list(violated: InvariantSet) -> Html {
    html! { <InvariantList {violated} /> }
}

#[derive(Properties, PartialEq)]
struct InvariantListProps {
    violated: InvariantSet,
}

/// A component of its own: the verdicts change at a few events of a run, not at every step.
/// In two groups (`Invariant::concern`): what the lock promises about who holds it, which a
/// lease lets overlap, and the data, which fencing protects.
#[component]
fn InvariantList(props: &InvariantListProps) -> Html {
    html! {
        <div class="invariant-groups">
            { for Concern::ALL.into_iter().map(|concern| {
                let (id, heading) = match concern {
                    Concern::Lock => ("lock", "Beliefs (leases let them overlap)"),
                    Concern::Data => ("data", "Data (what fencing protects)"),
                };
                html! {
                    <div class={classes!("invariant-group", format!("invariant-group-{id}"))}
                        data-testid="invariant-group" data-concern={id}>
                        <h3 class="invariant-heading">{ heading }</h3>
                        <ul class="invariants">
                            { for concern.invariants().map(|invariant| invariant_item(invariant, props.violated)) }
                        </ul>
                    </div>
                }
            }) }
        </div>
    }
}

fn client_card(
    node: NodeId,
    client: &Client,
    local: LocalTime,
    process: Process,
    cast: &Cast,
) -> Html {
    let held_safely = held_safely_words(client, cast.name(node), local);
    let renewals = match (client.config.renewal, client.lease) {
        (Renewal::Never {}, _) => "no renewals".to_owned(),
        (Renewal::Every { .. }, Some(lease)) => lease.renewals_left.to_string(),
        (Renewal::Every { max_renewals }, None) => max_renewals.to_string(),
    };
    row_card(
        "client-row",
        cast.name(node).to_owned(),
        vec![
            ("state", client_state_word(client).to_owned()),
            ("token", token_text(client.token(), "—")),
            (
                "believes it holds",
                if client.believes_it_holds_the_lock() {
                    "yes"
                } else {
                    "no"
                }
                .to_owned(),
            ),
            ("heldSafely()", held_safely),
            ("renewals left", renewals),
        ],
        format!("{} · clock {} ms", process_word(process), local.0),
    )
}

fn network_card(sim: &Sim) -> Html {
    let cast = sim.cast();
    let cuts: Vec<String> = sim
        .network()
        .cuts()
        .map(|(from, to)| format!("{} → {}", cast.name(from), cast.name(to)))
        .collect();
    let held: Vec<String> = sim
        .network()
        .messages()
        .iter()
        .filter(|m| matches!(m.status, MessageStatus::Held { .. }))
        .map(|m| {
            format!(
                "#{} {} ({} → {})",
                m.id.0,
                m.payload.label(),
                cast.name(m.from),
                cast.name(m.to)
            )
        })
        .collect();
    let in_flight = sim.network().in_flight().count();
    row_card(
        "network",
        "network".to_owned(),
        vec![
            (
                "cut links",
                if cuts.is_empty() {
                    "none".to_owned()
                } else {
                    cuts.join(", ")
                },
            ),
            (
                "held messages",
                if held.is_empty() {
                    "none".to_owned()
                } else {
                    held.join(", ")
                },
            ),
            ("in flight", in_flight.to_string()),
        ],
        "Select a message on the timeline to hold, release or drop it.".to_owned(),
    )
}

fn invariant_item(invariant: Invariant, violated: InvariantSet) -> Html {
    let broken = violated.contains(invariant);
    html! {
        <li class={classes!("invariant", broken.then_some("broken"))} data-invariant={invariant.id()}
            data-testid="invariant" data-status={if broken { "violated" } else { "holds" }}>
            <span class="verdict" aria-hidden="true">{ if broken { "✗" } else { "✓" } }</span>
            <span class="visually-hidden">{ if broken { "violated: " } else { "holds: " } }</span>
            { invariant.statement() }
        </li>
    }
}
