//! The article's own check in its third test, "maintains at most one holder under chaos": for
//! every moment of the run's timeline, `moment.acceptedWriters.length <= 1`. The article does
//! not say what a moment or an accepted writer is, so here is what this check takes them to be
//! in a discrete-event trace:
//!
//! - **An accepted writer** is a client with a write under way that the resource accepts. The
//!   write is under way from the event at which its client sends it to the event at which the
//!   resource accepts it (with a sequencer check, the acceptance comes once the lock service
//!   has answered). Writes the resource refuses make no accepted writer.
//! - **A moment** is one event of the trace. Nothing changes between two events, so checking
//!   at every event checks every moment; events at the same virtual millisecond are still
//!   separate moments, in the order the engine handled them.
//!
//! The check fails at the first moment at which two different clients each have an accepted
//! write under way. It judges the resource's acceptances only, not the data: a write accepted
//! in the fencing gap, after the new holder read but before it wrote, overlaps no other write
//! and passes, although it loses an increment — which `data_check` (ours, and stronger) finds.

use super::evidence::TwoWriters;
use super::finding::Finding;
use crate::engine::sim::Sim;
use crate::engine::trace::{Cause, TraceEvent};
use crate::scenario::types::Scenario;
use crate::vocabulary::happening::{Happening, Input};
use crate::world::ids::{MessageId, NodeId};
use crate::world::time::VirtualTime;
use crate::world::token::FencingToken;
use std::collections::BTreeMap;

/// One accepted write: who wrote it and the moments it was under way, `sent ..= accepted`.
#[derive(Clone, Copy, Debug)]
struct AcceptedWrite {
    writer: NodeId,
    sent: usize,
    accepted: usize,
}

/// Runs `scenario` to its end and applies the article's check to it.
pub fn accepted_writers_check(scenario: &Scenario) -> Finding {
    let mut sim = match Sim::new(scenario) {
        Ok(sim) => sim,
        Err(error) => return Finding::CannotRun(error.to_string()),
    };
    sim.run_to_end();
    judge_accepted_writers(&sim)
}

/// Applies the article's check to a finished run.
pub fn judge_accepted_writers(sim: &Sim) -> Finding {
    let writes = accepted_writes(sim.trace());
    let accepted = u32::try_from(writes.len()).unwrap_or(u32::MAX);
    let two_writers = first_two_writers(writes).map(|(event, earlier, later)| TwoWriters {
        event,
        at: sim.trace().get(event).map_or(VirtualTime(0), |e| e.time),
        earlier: sim.cast().name(earlier).to_owned(),
        later: sim.cast().name(later).to_owned(),
    });
    Finding::AcceptedWriters {
        accepted,
        two_writers,
    }
}

/// The message an event handled, if it handled one.
fn message_of(event: &TraceEvent) -> Option<MessageId> {
    match event.cause {
        Cause::Input(Input::Message(id)) | Cause::Resumed(Input::Message(id)) => Some(id),
        _ => None,
    }
}

/// Every write the resource accepted, with the moment its client sent it.
fn accepted_writes(trace: &[TraceEvent]) -> Vec<AcceptedWrite> {
    // The event that sent each write message, and, for writes held for a sequencer check, the
    // event that sent the write held for that writer and token.
    let mut sent_by: BTreeMap<MessageId, usize> = BTreeMap::new();
    let mut held: BTreeMap<(NodeId, Option<FencingToken>), usize> = BTreeMap::new();
    let mut writes = Vec::new();
    for (index, event) in trace.iter().enumerate() {
        let sent = message_of(event).and_then(|id| sent_by.get(&id).copied());
        match event.happening {
            Happening::WriteSent { .. } => {
                sent_by.extend(event.sent_messages().map(|id| (id, index)));
            }
            Happening::SequencerAsked { writer, token } => {
                held.insert((writer, Some(token)), sent.unwrap_or(index));
            }
            Happening::WriteAccepted { writer, token, .. } => writes.push(AcceptedWrite {
                writer,
                // A write answered after a sequencer check was sent when the held write was;
                // one whose send is not in the trace is under way at its acceptance only.
                sent: sent
                    .or_else(|| held.remove(&(writer, token)))
                    .unwrap_or(index),
                accepted: index,
            }),
            _ => {}
        }
    }
    writes
}

/// The first moment at which two different clients' accepted writes were under way, with the
/// client whose write was already under way and the one whose write began then. Taking the
/// writes in the order they were sent, the first one sent while another client's was still
/// under way gives it: two writes overlap first at the later one's sending.
fn first_two_writers(mut writes: Vec<AcceptedWrite>) -> Option<(usize, NodeId, NodeId)> {
    writes.sort_by_key(|w| (w.sent, w.accepted));
    let mut under_way: Vec<AcceptedWrite> = Vec::new();
    for write in writes {
        under_way.retain(|w| w.accepted >= write.sent);
        if let Some(other) = under_way.iter().find(|w| w.writer != write.writer) {
            return Some((write.sent, other.writer, write.writer));
        }
        under_way.push(write);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(writer: u16, sent: usize, accepted: usize) -> AcceptedWrite {
        AcceptedWrite {
            writer: NodeId(writer),
            sent,
            accepted,
        }
    }

    fn first(writes: &[AcceptedWrite]) -> Option<(usize, u16, u16)> {
        first_two_writers(writes.to_vec()).map(|(at, a, b)| (at, a.0, b.0))
    }

    #[test]
    fn two_writes_overlap_at_the_later_sending_and_a_moment_includes_both_ends() {
        assert_eq!(first(&[write(1, 0, 4), write(2, 5, 9)]), None);
        assert_eq!(first(&[write(1, 0, 5), write(2, 5, 9)]), Some((5, 1, 2)));
        assert_eq!(first(&[write(2, 3, 9), write(1, 0, 20)]), Some((3, 1, 2)));
        // The earliest moment wins, whatever order the writes were accepted in.
        assert_eq!(
            first(&[write(1, 10, 12), write(2, 11, 30), write(3, 2, 40)]),
            Some((10, 3, 1))
        );
    }

    #[test]
    fn one_client_with_two_writes_under_way_is_one_writer() {
        assert_eq!(first(&[write(1, 0, 9), write(1, 2, 3)]), None);
        assert_eq!(
            first(&[write(1, 0, 9), write(1, 2, 3), write(2, 4, 5)]),
            Some((4, 1, 2))
        );
        assert_eq!(first(&[]), None);
    }
}
