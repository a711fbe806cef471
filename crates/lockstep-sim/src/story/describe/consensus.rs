//! The narration of one domain's events.
//! A consensus service's replicas: the log, the waiters, elections and leadership.

use super::narrator::Narrator;
use super::words::op_words;
use crate::vocabulary::happening::{Happening, StepDown, Withheld};

/// A consensus leader appends, stores and commits entries, and queues waiters.
pub(super) fn log(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator { cast, .. } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::Appended { node, index, op } => format!(
            "{} (the leader) writes entry {index} to its log, \"{}\", and sends it to the other replicas. It counts only once a majority has it.",
            n(node),
            op_words(op, cast)
        ),
        Happening::Stored {
            node,
            index,
            leader,
        } => {
            format!(
                "{} stores entry {index} from the leader {}.",
                n(node),
                n(leader)
            )
        }
        Happening::Committed { node, index } => {
            format!(
                "{} learns that the log is committed up to entry {index}.",
                n(node)
            )
        }
        Happening::Queued {
            node,
            client,
            ahead,
            until,
        } => match until {
            Some(until) => format!(
                "{} has {}'s key. {} waits: the lock is in its lock-delay until {} ms by {}'s clock, because its last holder failed.",
                n(node),
                n(client),
                n(client),
                until.0,
                n(node)
            ),
            None => format!(
                "{} has {}'s key. {} waits in the queue ({ahead} ahead of it besides the holder); its turn comes when every lower key is gone.",
                n(node),
                n(client),
                n(client)
            ),
        },
        _ => return None,
    };
    Some(text)
}

/// Waiters watch, wake and expire; a replica that is not the leader says so.
pub(super) fn waiters(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator { cast, .. } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::Watching {
            node,
            client,
            watchers,
        } => format!(
            "{} refuses {}, which now watches the lock for its release ({watchers} watching).",
            n(node),
            n(client)
        ),
        Happening::HerdWoken { node, woken } => format!(
            "The lock is released, and {} wakes all {woken} watchers at once. They will all ask again; only one can win (the herd effect).",
            n(node)
        ),
        Happening::WaiterExpired { node, client } => format!(
            "{}'s turn has come, but {} finds its key gone: its session expired while it waited. {} tells it the session expired instead of granting the lock.",
            n(client),
            n(node),
            n(node)
        ),
        Happening::GrantedWithoutLease {
            node,
            client,
            token,
        } => format!(
            "{} tells {} it holds the lock with token {token}, the revision of the key {} put when it started waiting, without checking that the key still exists (the etcd 3.4.3 bug). {}'s session expired while it waited and its key is gone, so the lock is in fact free.",
            n(node),
            n(client),
            n(client),
            n(client)
        ),
        Happening::Woken { client } => {
            format!(
                "{} hears the lock was released and asks for it again.",
                n(client)
            )
        }
        Happening::NotLeader { node, client } => {
            format!(
                "{} is not the leader and sends {} away.",
                n(node),
                n(client)
            )
        }
        _ => return None,
    };
    Some(text)
}

/// Elections: calls, votes, and votes withheld.
pub(super) fn election(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator { cast, .. } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::ElectionStarted { node, term } => format!(
            "{} has not heard from a leader for an election timeout: it stands for election in term {term}. No lock can be granted until there is a leader.",
            n(node)
        ),
        Happening::Voted {
            node,
            candidate,
            term,
            granted,
        } => format!(
            "{} {} {} in term {term}.",
            n(node),
            if granted {
                "votes for"
            } else {
                "refuses its vote to"
            },
            n(candidate)
        ),
        Happening::BecameLeader { node, term } => format!(
            "{} wins a majority of votes and leads term {term}. Its log has every committed grant, but it answers for the lock only once an entry of its own term has committed.",
            n(node)
        ),
        Happening::VoteWithheld {
            node,
            candidate,
            term,
            why,
        } => format!(
            "{} {}, so it ignores {}'s call for an election in term {term}: {}",
            n(node),
            match why {
                Withheld::Leading =>
                    "leads, and a majority answered its heartbeats within an election timeout",
                Withheld::LeaderHeard => "heard from its leader less than an election timeout ago",
            },
            n(candidate),
            match why {
                Withheld::Leading =>
                    "a leader that may still be answering for the lock does not step aside.",
                Withheld::LeaderHeard =>
                    "a replica that can still hear its leader does not help depose it.",
            }
        ),
        _ => return None,
    };
    Some(text)
}

/// A leader starts serving, or steps down.
pub(super) fn leadership(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator { cast, .. } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::Serving { node, term } => format!(
            "{}'s first entry of term {term} is committed, and with it everything before it: now it knows which keys and sessions are live, and it starts answering for the lock. Every session starts again with its full TTL.",
            n(node)
        ),
        Happening::NotServingYet { node, client } => format!(
            "{} leads, but its first entry has not committed yet, so it cannot tell which sessions are live: it leaves {}'s request unanswered.",
            n(node),
            n(client)
        ),
        Happening::SteppedDown {
            node,
            term,
            why: StepDown::LostQuorum,
        } => format!(
            "{} stops leading (term {term}): it cannot reach a majority, so it must not answer for the lock.",
            n(node)
        ),
        Happening::SteppedDown {
            node,
            term,
            why: StepDown::LaterTerm,
        } => format!(
            "{} stops leading: another replica speaks of term {term}, later than its own, so it becomes a follower.",
            n(node)
        ),
        _ => return None,
    };
    Some(text)
}
