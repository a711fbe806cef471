//! The invariants judged on a recorded history (`story::recorded`): the simulation's own
//! invariants, read from what clients saw instead of from the model's state.
//!
//! A recording knows when a request was sent and when its answer came, not when the server
//! acted in between, so every rule here is judged the way that cannot accuse wrongly: two
//! stretches overlap only if their surest parts do (a lease surely lasted from its grant's
//! answer until its request's send plus the TTL, or a release), and one thing came
//! before another only if the first was answered before the second was sent. A real violation
//! that the timing cannot prove is missed, never one invented.
//!
//! Where a client asks several servers at once and counts (Redlock, the history's `quorum`),
//! the lock is a majority's: `quorum.rs` says when a client held it and believed it did.
//!
//! It must not read a trace or a scenario: a history from any system is judged the same way.

mod held;
mod quorum;
mod renewal;

use crate::story::recorded::{Acquired, Applied, Operation, RecordedHistory, Request};
use crate::vocabulary::invariant::{Invariant, InvariantSet};
pub use held::{Ended, Held};
use held::{belief, release_after};

/// The invariants a recorded history is judged on: all but the double charge (a recording
/// has no payments).
pub const JUDGED: [Invariant; 6] = [
    Invariant::OneBeliever,
    Invariant::OneLease,
    Invariant::TokensIncrease,
    Invariant::NoStaleWrite,
    Invariant::OneWriterPerToken,
    Invariant::NoLostUpdate,
];

/// One invariant broken: the first time, by which request, and between which clients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breach {
    pub invariant: Invariant,
    pub at_ms: u64,
    /// The request that broke it (an index into the history's operations).
    pub operation: usize,
    /// The clients it concerns, the breaking request's client first.
    pub clients: Vec<String>,
    /// For one believer and one lease, which can hold again: when the overlap surely ended
    /// (`None`: not within the recording). History invariants stay broken: `None`.
    pub until_ms: Option<u64>,
}

/// Every judged invariant's first breach, in the order of [`JUDGED`].
pub fn judge(history: &RecordedHistory) -> Vec<Breach> {
    let grants = grants(history);
    let mut breaches = Vec::new();
    breaches.extend(overlap(Invariant::OneBeliever, &beliefs(history)));
    breaches.extend(overlap(Invariant::OneLease, &leases(history)));
    breaches.extend(tokens_increase(history, &grants));
    breaches.extend(accepted_writes(history, &grants));
    breaches.extend(lost_update(history));
    breaches.sort_by_key(|b| JUDGED.iter().position(|i| *i == b.invariant));
    breaches
}

/// The set of invariants `breaches` broke.
pub fn broken(breaches: &[Breach]) -> InvariantSet {
    breaches
        .iter()
        .fold(InvariantSet::EMPTY, |set, b| set.with(b.invariant))
}

/// A grant a client was told: the request's index, its token and lease.
struct Grant {
    operation: usize,
    token: Option<u64>,
    ttl_ms: Option<u64>,
}

fn grants(history: &RecordedHistory) -> Vec<Grant> {
    history
        .operations
        .iter()
        .enumerate()
        .filter_map(|(operation, op)| match op.request {
            Request::Acquire(Some(Acquired::Granted { token, ttl_ms })) => Some(Grant {
                operation,
                token,
                ttl_ms,
            }),
            _ => None,
        })
        .collect()
}

/// Each client believes it holds the lock from a grant's answer (with a quorum, the answer
/// that made the quorum) until it sends its release.
pub fn beliefs(history: &RecordedHistory) -> Vec<Held<'_>> {
    if history.quorum > 1 {
        return quorum::beliefs(history);
    }
    grants(history)
        .iter()
        .filter_map(|g| {
            let grant = &history.operations[g.operation];
            Some(belief(
                history,
                &grant.client,
                g.operation,
                grant.answered_ms?,
            ))
        })
        .collect()
}

/// The stretches over which each client surely held the lock: each lease a server granted, or,
/// with a quorum, each stretch over which a quorum of one acquisition's leases were held.
pub fn leases(history: &RecordedHistory) -> Vec<Held<'_>> {
    if history.quorum > 1 {
        return quorum::leases(history, server_leases(history));
    }
    server_leases(history)
}

/// The part of each lease a server surely held: from its grant's answer until the request's
/// send plus the TTL (later for each renewal answered in time: `renewal.rs`), its holder's
/// release, any release on that server that let something go (a
/// plain `DEL` by another client deletes whatever key is there), the crash of the server that granted it,
/// or a forward jump of that server's clock that put the lease's end behind it, whichever is
/// first.
pub fn server_leases(history: &RecordedHistory) -> Vec<Held<'_>> {
    grants(history)
        .iter()
        .filter_map(|g| {
            let grant = &history.operations[g.operation];
            let from_ms = grant.answered_ms?;
            let expiry = g
                .ttl_ms
                .map(|ttl| renewal::extended(history, g.operation, grant.at_ms + ttl, ttl));
            let release = release_after(history, &grant.client, from_ms);
            let let_go = history
                .operations
                .iter()
                .find(|o| {
                    o.at_ms >= from_ms
                        && o.server == grant.server
                        && o.request == Request::Release(Some(true))
                })
                .map(|o| o.at_ms);
            let server = grant.server.as_deref().unwrap_or(&history.lock_service);
            let crash = history
                .faults
                .iter()
                .find(|f| f.at_ms >= from_ms && f.node == server && f.applied == Applied::Crash)
                .map(|f| f.at_ms);
            let jump = expiry.and_then(|end| jumped_past(history, server, from_ms, end));
            let ends = [
                (release, Ended::Released),
                (expiry, Ended::Expired),
                (let_go, Ended::LetGo),
                (crash, Ended::Crashed),
                (jump, Ended::ClockJumped),
            ];
            let (to_ms, ended) = ends
                .into_iter()
                .filter_map(|(at, why)| at.map(|at| (Some(at), why)))
                .min_by_key(|(at, _)| *at)
                .unwrap_or((None, Ended::Open));
            Some(Held {
                client: &grant.client,
                operation: g.operation,
                from_ms,
                to_ms,
                ended,
            })
        })
        .collect()
}

/// When a forward jump of `server`'s clock, at or after `from_ms`, surely ended a lease that
/// would otherwise end at `end`: the server then counts `by_ms` more, so the lease ends at the
/// jump or `by_ms` early, whichever is later. A backward jump lengthens a lease, which the
/// surest reading does not count.
fn jumped_past(history: &RecordedHistory, server: &str, from_ms: u64, end: u64) -> Option<u64> {
    history
        .faults
        .iter()
        .filter(|f| f.at_ms >= from_ms && f.at_ms < end && f.node == server)
        .find_map(|f| match f.applied {
            Applied::ClockJump { by_ms } if by_ms > 0 => {
                Some(f.at_ms.max(end.saturating_sub(by_ms.unsigned_abs())))
            }
            _ => None,
        })
        .filter(|&at| at < end)
}

/// The first time two clients' stretches overlap, broken when the later one starts.
fn overlap(invariant: Invariant, stretches: &[Held]) -> Option<Breach> {
    stretches
        .iter()
        .flat_map(|a| stretches.iter().map(move |b| (a, b)))
        .filter(|(earlier, later)| {
            earlier.client != later.client
                && (earlier.from_ms, earlier.operation) < (later.from_ms, later.operation)
                && earlier.to_ms.is_none_or(|end| later.from_ms < end)
        })
        .min_by_key(|(_, later)| (later.from_ms, later.operation))
        .map(|(earlier, later)| Breach {
            invariant,
            at_ms: later.from_ms,
            operation: later.operation,
            clients: vec![later.client.to_owned(), earlier.client.to_owned()],
            until_ms: match (earlier.to_ms, later.to_ms) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
        })
}

/// A token told to a client that is not larger than one surely told to another client before.
fn tokens_increase(history: &RecordedHistory, grants: &[Grant]) -> Option<Breach> {
    grants.iter().find_map(|g| {
        let grant = &history.operations[g.operation];
        let token = g.token?;
        let earlier = grants.iter().find(|e| {
            let other = &history.operations[e.operation];
            other.client != grant.client
                && other.answered_ms.is_some_and(|told| told <= grant.at_ms)
                && e.token.is_some_and(|t| t >= token)
        })?;
        Some(Breach {
            invariant: Invariant::TokensIncrease,
            at_ms: grant.answered_ms.unwrap_or(grant.at_ms),
            operation: g.operation,
            clients: vec![
                grant.client.clone(),
                history.operations[earlier.operation].client.clone(),
            ],
            until_ms: None,
        })
    })
}

/// The moment a write surely acted on the resource no earlier than: when the resource's log
/// says it applied it, or else its send.
fn acted_ms(write: &Operation) -> u64 {
    write.applied_ms().unwrap_or(write.at_ms)
}

/// The writes the resource accepted (its client was told so, or its log says it applied them):
/// stale when another client had surely been told a higher token before the write acted;
/// a second writer when another client's write with the same token was accepted too.
fn accepted_writes(history: &RecordedHistory, grants: &[Grant]) -> Vec<Breach> {
    let accepted: Vec<(usize, &Operation, u64)> = history
        .operations
        .iter()
        .enumerate()
        .filter(|(_, o)| o.write_landed_ms().is_some())
        .filter_map(|(i, o)| match o.request {
            Request::Write {
                token: Some(token), ..
            } => Some((i, o, token)),
            _ => None,
        })
        .collect();
    let stale = accepted.iter().find_map(|&(i, write, token)| {
        let superseding = grants.iter().find(|g| {
            let grant = &history.operations[g.operation];
            grant.client != write.client
                && grant
                    .answered_ms
                    .is_some_and(|told| told <= acted_ms(write))
                && g.token.is_some_and(|t| t > token)
        })?;
        Some(breach(
            Invariant::NoStaleWrite,
            i,
            write,
            &history.operations[superseding.operation],
        ))
    });
    let second_writer = accepted.iter().find_map(|&(i, write, token)| {
        let (_, first, _) = accepted
            .iter()
            .find(|&&(j, other, t)| j < i && t == token && other.client != write.client)?;
        Some(breach(Invariant::OneWriterPerToken, i, write, first))
    });
    stale.into_iter().chain(second_writer).collect()
}

/// An accepted write computed from a read, when another client's write surely took effect
/// between that read's answer and this write's acting: the other update was overwritten
/// unseen.
fn lost_update(history: &RecordedHistory) -> Option<Breach> {
    let ops = &history.operations;
    ops.iter().enumerate().find_map(|(i, write)| {
        write.write_landed_ms()?;
        let read = ops[..i]
            .iter()
            .rev()
            .find(|o| o.client == write.client && matches!(o.request, Request::Read(Some(_))))?;
        let read_answered = read.answered_ms?;
        let unseen = ops.iter().find(|o| {
            o.client != write.client
                && o.at_ms >= read_answered
                && o.write_landed_ms()
                    .is_some_and(|landed| landed <= acted_ms(write))
        })?;
        Some(breach(Invariant::NoLostUpdate, i, write, unseen))
    })
}

fn breach(invariant: Invariant, operation: usize, by: &Operation, other: &Operation) -> Breach {
    Breach {
        invariant,
        at_ms: by.write_landed_ms().or(by.answered_ms).unwrap_or(by.at_ms),
        operation,
        clients: vec![by.client.clone(), other.client.clone()],
        until_ms: None,
    }
}

/// The resource's history as the linearizability checker reads it: every answered read, and
/// every write the resource accepted (answered, or applied by its log, which then stands for
/// the answer), each client numbered in the order of [`RecordedHistory::clients`]. Refused
/// writes changed nothing; a write neither answered nor logged may or may not have taken
/// effect, which this checker cannot weigh, so it is left out.
#[cfg(feature = "history-check")]
pub fn register_history(history: &RecordedHistory) -> crate::analysis::linearizability::History {
    use crate::analysis::linearizability::{Effect, History, Operation as Checked};
    use crate::world::ids::NodeId;
    use crate::world::time::VirtualTime;
    let clients = history.clients();
    let number = |name: &str| {
        let index = clients.iter().position(|c| *c == name).unwrap_or(0);
        NodeId(u16::try_from(index).unwrap_or(u16::MAX))
    };
    let operations = history
        .operations
        .iter()
        .filter_map(|o| {
            let (effect, answered) = match o.request {
                Request::Read(Some(value)) => (Effect::Read { value }, o.answered_ms),
                Request::Write { value, .. } => {
                    (Effect::Write { value }, Some(o.write_landed_ms()?))
                }
                _ => return None,
            };
            Some(Checked {
                client: number(&o.client),
                invoked: VirtualTime(o.at_ms),
                answered: answered.map(VirtualTime),
                effect,
            })
        })
        .collect();
    History {
        initial: history.initial_value,
        operations,
    }
}

impl std::fmt::Display for Breach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let by = self.clients.first().map_or("?", String::as_str);
        let other = self.clients.get(1).map_or("?", String::as_str);
        let at = self.at_ms;
        match self.invariant {
            Invariant::OneBeliever => write!(
                f,
                "{by} was granted the lock at {at} ms while {other} still believed it held it"
            ),
            Invariant::OneLease => write!(
                f,
                "{by} was granted a lease at {at} ms before {other}'s had surely ended"
            ),
            Invariant::TokensIncrease => write!(
                f,
                "{by} was told a token at {at} ms no higher than one {other} had been told"
            ),
            Invariant::NoStaleWrite => write!(
                f,
                "{by}'s write was accepted at {at} ms after {other} had been told a higher token"
            ),
            Invariant::OneWriterPerToken => write!(
                f,
                "{by}'s write was accepted at {at} ms with the token {other} had written with"
            ),
            Invariant::NoLostUpdate => write!(
                f,
                "{by}'s write, accepted at {at} ms, overwrote {other}'s update unread"
            ),
            Invariant::NoDoubleCharge => write!(f, "{by} was charged twice at {at} ms"),
        }
    }
}
