//! The narration of one domain's events: a function per kind of happening, given its fields by
//! `describe`'s exhaustive match.
//! A consensus service's replicas: the log, the waiters, elections and leadership.

use super::narrator::Narrator;
use super::words::op_words;
use crate::vocabulary::happening::{StepDown, Withheld};
use crate::vocabulary::message::{AcquireReply, Payload};
use crate::vocabulary::raft::Op;
use crate::world::ids::NodeId;
use crate::world::time::LocalTime;
use crate::world::token::FencingToken;

// A consensus leader appends, stores and commits entries, and queues waiters.

pub(super) fn appended(narrator: &Narrator<'_>, node: NodeId, index: u32, op: Op) -> String {
    let Narrator { cast, .. } = *narrator;
    format!(
        "{} (the leader) writes entry {index} to its log, \"{}\", and sends it to the other replicas. It counts only once a majority has it.",
        narrator.name(node),
        op_words(op, cast)
    )
}

pub(super) fn stored(narrator: &Narrator<'_>, node: NodeId, index: u32, leader: NodeId) -> String {
    format!(
        "{} stores entry {index} from the leader {}.",
        narrator.name(node),
        narrator.name(leader)
    )
}

pub(super) fn committed(narrator: &Narrator<'_>, node: NodeId, index: u32) -> String {
    format!(
        "{} learns that the log is committed up to entry {index}.",
        narrator.name(node)
    )
}

pub(super) fn queued(
    narrator: &Narrator<'_>,
    node: NodeId,
    client: NodeId,
    ahead: u32,
    until: Option<LocalTime>,
) -> String {
    match until {
        Some(until) => format!(
            "{} has {}'s key. {} waits: the lock is in its lock-delay until {} ms by {}'s clock, because its last holder failed.",
            narrator.name(node),
            narrator.name(client),
            narrator.name(client),
            until.0,
            narrator.name(node)
        ),
        None => format!(
            "{} has {}'s key. {} waits in the queue ({ahead} ahead of it besides the holder); its turn comes when every lower key is gone.",
            narrator.name(node),
            narrator.name(client),
            narrator.name(client)
        ),
    }
}

// Waiters watch, wake and expire; a replica that is not the leader says so.

pub(super) fn watching(
    narrator: &Narrator<'_>,
    node: NodeId,
    client: NodeId,
    watchers: u32,
) -> String {
    format!(
        "{} refuses {}, which now watches the lock for its release ({watchers} watching).",
        narrator.name(node),
        narrator.name(client)
    )
}

pub(super) fn herd_woken(narrator: &Narrator<'_>, node: NodeId, woken: u32) -> String {
    let watchers: Vec<&str> = narrator
        .sent()
        .filter(|m| matches!(m.payload, Payload::LockFreed))
        .map(|m| narrator.name(m.to))
        .collect();
    format!(
        "{}The lock is free again, and {} wakes all {woken} watchers at once ({}). They will all ask again; only one can win (the herd effect).",
        narrator.releases_confirmed(),
        narrator.name(node),
        watchers.join(", ")
    )
}

pub(super) fn waiter_expired(narrator: &Narrator<'_>, node: NodeId, client: NodeId) -> String {
    format!(
        "{}{}'s turn has come, but {} finds its key gone: its session expired while it waited. {} tells it the session expired instead of granting the lock.{}",
        narrator.releases_confirmed(),
        narrator.name(client),
        narrator.name(node),
        narrator.name(node),
        other_answers(narrator, node, client)
    )
}

/// The other waiters a leader answered in the same pass: once an expired waiter's key is gone,
/// the next key may be the oldest, and its client is told it holds the lock in this same event.
fn other_answers(narrator: &Narrator<'_>, node: NodeId, told: NodeId) -> String {
    let leader = narrator.name(node);
    narrator
        .sent()
        .filter(|m| m.to != told)
        .filter_map(|m| match m.payload {
            Payload::AcquireReply { reply, .. } => Some((narrator.name(m.to), reply)),
            _ => None,
        })
        .map(|(client, reply)| match reply {
            AcquireReply::Granted { token: Some(token) } => format!(
                " {client}'s key is now the oldest: {leader} tells {client} it holds the lock, with token {token}."
            ),
            AcquireReply::Granted { token: None } => {
                format!(" {leader} tells {client} it holds the lock.")
            }
            AcquireReply::SessionExpired => {
                format!(" {client}'s session expired while it waited too: {leader} tells it so.")
            }
            AcquireReply::HeldElsewhere => {
                format!(" {leader} tells {client} the lock is held elsewhere.")
            }
        })
        .collect()
}

pub(super) fn granted_without_lease(
    narrator: &Narrator<'_>,
    node: NodeId,
    client: NodeId,
    token: FencingToken,
) -> String {
    let (leader, waiter) = (narrator.name(node), narrator.name(client));
    format!(
        "{}{leader} tells {waiter} it holds the lock with token {token}, the create revision of the key {waiter} put when it started waiting, without checking that the key still exists (the bug of etcd 3.4.x, fixed in 3.5.0). {waiter}'s session expired while it waited and its key is gone: no lease stands behind this grant.{}",
        narrator.releases_confirmed(),
        other_answers(narrator, node, client)
    )
}

pub(super) fn woken(narrator: &Narrator<'_>, client: NodeId) -> String {
    format!(
        "{} hears the lock was released and asks for it again.",
        narrator.name(client)
    )
}

pub(super) fn not_leader(narrator: &Narrator<'_>, node: NodeId, client: NodeId) -> String {
    format!(
        "{} is not the leader and sends {} away.",
        narrator.name(node),
        narrator.name(client)
    )
}

// Elections: calls, votes, and votes withheld.

pub(super) fn election_started(narrator: &Narrator<'_>, node: NodeId, term: u32) -> String {
    format!(
        "{} has not heard from a leader for an election timeout: it stands for election in term {term}. No lock can be granted until there is a leader.",
        narrator.name(node)
    )
}

pub(super) fn voted(
    narrator: &Narrator<'_>,
    node: NodeId,
    candidate: NodeId,
    term: u32,
    granted: bool,
) -> String {
    format!(
        "{} {} {} in term {term}.",
        narrator.name(node),
        if granted {
            "votes for"
        } else {
            "refuses its vote to"
        },
        narrator.name(candidate)
    )
}

pub(super) fn became_leader(narrator: &Narrator<'_>, node: NodeId, term: u32) -> String {
    format!(
        "{} wins a majority of votes and leads term {term}. Its log has every committed grant, but it answers for the lock only once an entry of its own term has committed.",
        narrator.name(node)
    )
}

pub(super) fn vote_withheld(
    narrator: &Narrator<'_>,
    node: NodeId,
    candidate: NodeId,
    term: u32,
    why: Withheld,
) -> String {
    format!(
        "{} {}, so it ignores {}'s call for an election in term {term}: {}",
        narrator.name(node),
        match why {
            Withheld::Leading =>
                "leads, and a majority answered its heartbeats within an election timeout",
            Withheld::LeaderHeard => "heard from its leader less than an election timeout ago",
        },
        narrator.name(candidate),
        match why {
            Withheld::Leading =>
                "a leader that may still be answering for the lock does not step aside.",
            Withheld::LeaderHeard =>
                "a replica that can still hear its leader does not help depose it.",
        }
    )
}

// A leader starts serving, or steps down.

pub(super) fn serving(narrator: &Narrator<'_>, node: NodeId, term: u32) -> String {
    format!(
        "{}'s first entry of term {term} is committed, and with it everything before it: now it knows which keys and sessions are live, and it starts answering for the lock. Every session starts again with its full TTL, as Consul resets one (etcd grants a little more: the TTL plus an election timeout).",
        narrator.name(node)
    )
}

pub(super) fn not_serving_yet(narrator: &Narrator<'_>, node: NodeId, client: NodeId) -> String {
    format!(
        "{} leads, but its first entry has not committed yet, so it cannot tell which sessions are live: it leaves {}'s request unanswered.",
        narrator.name(node),
        narrator.name(client)
    )
}

pub(super) fn stepped_down(
    narrator: &Narrator<'_>,
    node: NodeId,
    term: u32,
    why: StepDown,
) -> String {
    match why {
        StepDown::LostQuorum => format!(
            "{} stops leading (term {term}): it cannot reach a majority, so it must not answer for the lock.",
            narrator.name(node)
        ),
        StepDown::LaterTerm => format!(
            "{} stops leading: another replica speaks of term {term}, later than its own, so it becomes a follower.",
            narrator.name(node)
        ),
    }
}
