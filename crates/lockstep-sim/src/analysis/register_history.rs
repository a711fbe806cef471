//! What clients saw of the register in a finished run, as histories for the linearizability
//! checker and as a list of lost updates: the data, judged from the outside.
//!
//! Each read and each accepted write is matched to the message that asked for it (invoked when
//! the client sent it) and to the reply (answered when it reached the client, or never). Two
//! views exist. [`Granularity::Requests`]: every read and every accepted write on its own — the
//! register itself is one copy, so this history must always be linearizable; it checks that
//! what the resource accepted is what clients read. [`Granularity::Jobs`]: a read and the
//! write computed from it are one operation, from the read sent to the write answered — what a
//! lock is for: linearizable exactly when every job behaved as if it ran alone.
//!
//! What it must not do: consult the invariant checker or the resource's own verdicts beyond
//! "accepted"; the point is an independent reading of the data.
//!
//! Like the checker, it is compiled only with the `history-check` feature (on by default, off in
//! the page): only the crate's tests read it.

use crate::analysis::linearizability::{Effect, History, Operation};
use crate::engine::sim::Sim;
use crate::engine::trace::{Cause, TraceEvent};
use crate::scenario::types::ResourceSpec;
use crate::scenario::types::Scenario;
use crate::vocabulary::happening::{Happening, Input};
use crate::vocabulary::message::{Payload, WriteBasis, WriteRequest};
use crate::world::ids::{EventId, MessageId, NodeId};
use crate::world::network::MessageStatus;
use crate::world::time::VirtualTime;
use crate::world::token::FencingToken;
use std::collections::BTreeMap;

/// How coarse the operations of a history are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Granularity {
    /// Every read and every accepted write is one operation.
    Requests,
    /// A read and the accepted write computed from it are one operation.
    Jobs,
}

/// An accepted read-modify-write whose writer had not seen every write before it: those
/// updates are overwritten, lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LostUpdate {
    pub writer: NodeId,
    pub token: Option<FencingToken>,
    /// The event in which the resource accepted the overwriting write.
    pub event: EventId,
    /// The accepted writes the writer never read: who wrote them, with which token.
    pub lost: Vec<(NodeId, Option<FencingToken>)>,
}

/// A read the resource served.
#[derive(Clone, Copy, Debug)]
struct Served {
    client: NodeId,
    invoked: VirtualTime,
    answered: Option<VirtualTime>,
    value: i64,
    version: u64,
}

/// A write the resource accepted.
#[derive(Clone, Copy, Debug)]
struct Applied {
    client: NodeId,
    event: EventId,
    invoked: VirtualTime,
    answered: Option<VirtualTime>,
    request: WriteRequest,
    /// The register's version after the write.
    version: u64,
}

/// The history of the register in `sim`, a run of `scenario`; `None` if its resource is not a
/// register.
pub fn register_history(
    scenario: &Scenario,
    sim: &Sim,
    granularity: Granularity,
) -> Option<History> {
    let ResourceSpec::Register { initial_value, .. } = scenario.resource else {
        return None;
    };
    let (reads, writes) = observe(sim);
    let mut reads: Vec<Option<Served>> = reads.into_iter().map(Some).collect();
    let mut operations = Vec::new();
    for write in &writes {
        let read = match (granularity, write.request.basis) {
            (Granularity::Jobs, WriteBasis::ReadAt(version) | WriteBasis::IfVersion(version)) => {
                take_read_for(&mut reads, write, version)
            }
            _ => None,
        };
        operations.push(match read {
            Some(read) => Operation {
                client: write.client,
                invoked: read.invoked,
                answered: write.answered,
                effect: Effect::Update {
                    read: read.value,
                    write: write.request.value,
                },
            },
            None => Operation {
                client: write.client,
                invoked: write.invoked,
                answered: write.answered,
                effect: Effect::Write {
                    value: write.request.value,
                },
            },
        });
    }
    // A read whose answer never came told no one anything.
    operations.extend(reads.into_iter().flatten().filter_map(|read| {
        read.answered.map(|answered| Operation {
            client: read.client,
            invoked: read.invoked,
            answered: Some(answered),
            effect: Effect::Read { value: read.value },
        })
    }));
    operations.sort_by_key(|op| (op.invoked, op.answered));
    Some(History {
        initial: initial_value,
        operations,
    })
}

/// Every accepted read-modify-write that overwrote writes its writer never read, judged from
/// the versions: the write was computed from version `r` and applied on top of version `n`, so
/// the writes that made versions `r + 1 ..= n` are lost.
pub fn lost_updates(sim: &Sim) -> Vec<LostUpdate> {
    let (_, writes) = observe(sim);
    let by_version: BTreeMap<u64, &Applied> = writes.iter().map(|w| (w.version, w)).collect();
    writes
        .iter()
        .filter_map(|write| {
            let WriteBasis::ReadAt(read) = write.request.basis else {
                return None;
            };
            let before = write.version.checked_sub(1)?;
            (read < before).then(|| LostUpdate {
                writer: write.client,
                token: write.request.token,
                event: write.event,
                lost: by_version
                    .range(read + 1..=before)
                    .map(|(_, lost)| (lost.client, lost.request.token))
                    .collect(),
            })
        })
        .collect()
}

/// The latest answered read by the write's client at `version`, sent before the write: the
/// read the write was computed from. Taken out, so it is not also counted as a read.
fn take_read_for(reads: &mut [Option<Served>], write: &Applied, version: u64) -> Option<Served> {
    reads
        .iter_mut()
        .rev()
        .find(|read| {
            read.is_some_and(|r| {
                r.client == write.client
                    && r.version == version
                    && r.answered.is_some_and(|at| at <= write.invoked)
            })
        })
        .and_then(Option::take)
}

/// Every read the register served and every write it accepted, in the order it handled them.
fn observe(sim: &Sim) -> (Vec<Served>, Vec<Applied>) {
    let resource = sim.cast().resource();
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    // Sequencer mode: a write waits for the lock service's answer, which is what the accepting
    // event handles; the write's own message is the one that made the resource ask.
    let mut asked: BTreeMap<(NodeId, FencingToken), MessageId> = BTreeMap::new();
    for event in sim.trace().iter().filter(|e| e.actor == resource) {
        match event.happening {
            Happening::ReadServed {
                reader,
                value,
                version,
            } => {
                if let Some(invoked) = request_of(event).and_then(|m| sent_at(sim, m)) {
                    reads.push(Served {
                        client: reader,
                        invoked,
                        answered: answered(sim, event, reader),
                        value,
                        version,
                    });
                }
            }
            Happening::SequencerAsked { writer, token } => {
                if let Some(message) = request_of(event) {
                    asked.insert((writer, token), message);
                }
            }
            Happening::WriteAccepted {
                writer,
                token,
                version,
                ..
            } => {
                let message = request_of(event)
                    .filter(|m| write_request(sim, *m).is_some())
                    .or_else(|| token.and_then(|t| asked.remove(&(writer, t))));
                let request =
                    message.and_then(|m| Some((sent_at(sim, m)?, write_request(sim, m)?)));
                if let Some((invoked, request)) = request {
                    writes.push(Applied {
                        client: writer,
                        event: event.id,
                        invoked,
                        answered: answered(sim, event, writer),
                        request,
                        version,
                    });
                }
            }
            _ => {}
        }
    }
    (reads, writes)
}

/// The message the event handled, if it handled one.
fn request_of(event: &TraceEvent) -> Option<MessageId> {
    match event.cause {
        Cause::Input(Input::Message(message)) | Cause::Resumed(Input::Message(message)) => {
            Some(message)
        }
        _ => None,
    }
}

fn sent_at(sim: &Sim, message: MessageId) -> Option<VirtualTime> {
    sim.network().message(message).map(|m| m.sent_at)
}

fn write_request(sim: &Sim, message: MessageId) -> Option<WriteRequest> {
    match sim.network().message(message)?.payload {
        Payload::Write(request) => Some(request),
        _ => None,
    }
}

/// When the event's reply reached `client`, if it did.
fn answered(sim: &Sim, event: &TraceEvent, client: NodeId) -> Option<VirtualTime> {
    event
        .sent_messages()
        .filter_map(|m| sim.network().message(m))
        .find(|m| m.to == client)
        .and_then(|m| match m.status {
            MessageStatus::Delivered { at } => Some(at),
            _ => None,
        })
}
