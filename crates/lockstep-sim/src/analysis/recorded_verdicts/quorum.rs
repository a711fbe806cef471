//! A lock made of several servers' grants (Redlock, a history whose `quorum` is over one): a
//! client asks every server at once, and the lock is its while `quorum` of them hold its lease.
//!
//! One acquisition is a client's acquire requests from its previous release to its next one
//! (Redlock asks every node, then unlocks them all). The client believes it holds the lock from
//! the answer that completed a quorum of grants until it sends its release; it surely holds it
//! while at least `quorum` of that acquisition's leases (`server_leases`, each ended as surely
//! as the recording shows) are held at once. A client that got a quorum but found too little
//! validity left unlocks at once: the recording cannot see that check, so its belief lasts
//! until that unlock.

use super::held::{Ended, Held, belief};
use crate::story::recorded::{Acquired, RecordedHistory, Request};

/// Each acquisition's granted requests (indices into the operations), with its client.
fn acquisitions(history: &RecordedHistory) -> Vec<(&str, Vec<usize>)> {
    let mut done: Vec<(&str, Vec<usize>)> = Vec::new();
    let mut open: Vec<(&str, Vec<usize>)> = Vec::new();
    for (i, op) in history.operations.iter().enumerate() {
        let client = op.client.as_str();
        let current = match open.iter().position(|(c, _)| *c == client) {
            Some(at) => at,
            None => {
                open.push((client, Vec::new()));
                open.len() - 1
            }
        };
        match op.request {
            Request::Acquire(Some(Acquired::Granted { .. })) => open[current].1.push(i),
            Request::Release(_) => {
                let ended = std::mem::take(&mut open[current].1);
                if !ended.is_empty() {
                    done.push((client, ended));
                }
            }
            _ => {}
        }
    }
    done.extend(open.into_iter().filter(|(_, granted)| !granted.is_empty()));
    done
}

fn quorum(history: &RecordedHistory) -> usize {
    usize::try_from(history.quorum).unwrap_or(usize::MAX)
}

/// From the answer that completed a quorum of one acquisition's grants until the client's
/// release.
pub(super) fn beliefs(history: &RecordedHistory) -> Vec<Held<'_>> {
    let mut held: Vec<Held> = acquisitions(history)
        .into_iter()
        .filter_map(|(client, granted)| {
            let mut answers: Vec<(u64, usize)> = granted
                .iter()
                .filter_map(|&i| history.operations[i].answered_ms.map(|at| (at, i)))
                .collect();
            answers.sort_unstable();
            let &(from_ms, operation) = answers.get(quorum(history).checked_sub(1)?)?;
            Some(belief(history, client, operation, from_ms))
        })
        .collect();
    held.sort_by_key(|h| (h.from_ms, h.operation));
    held
}

/// Each stretch over which a quorum of one acquisition's leases (`per_server`) were held at
/// once, ended by the lease whose end took it below the quorum.
pub(super) fn leases<'a>(history: &'a RecordedHistory, per_server: Vec<Held<'a>>) -> Vec<Held<'a>> {
    let need = quorum(history);
    let mut held = Vec::new();
    for (client, granted) in acquisitions(history) {
        let mut ends: Vec<(u64, bool, &Held)> = Vec::new();
        for lease in per_server.iter().filter(|l| granted.contains(&l.operation)) {
            ends.push((lease.from_ms, true, lease));
            if let Some(to_ms) = lease.to_ms {
                ends.push((to_ms, false, lease));
            }
        }
        // At the same moment an end counts before a start: the surer reading.
        ends.sort_by_key(|&(at, starts, lease)| (at, starts, lease.operation));
        let mut count = 0;
        let mut since: Option<(u64, usize)> = None;
        for (at, starts, lease) in ends {
            if starts {
                count += 1;
                if count == need {
                    since = Some((at, lease.operation));
                }
                continue;
            }
            if count == need
                && let Some((from_ms, operation)) = since.take()
            {
                held.push(Held {
                    client,
                    operation,
                    from_ms,
                    to_ms: Some(at),
                    ended: lease.ended,
                });
            }
            count -= 1;
        }
        if let Some((from_ms, operation)) = since {
            held.push(Held {
                client,
                operation,
                from_ms,
                to_ms: None,
                ended: Ended::Open,
            });
        }
    }
    held.sort_by_key(|h| (h.from_ms, h.operation));
    held
}
