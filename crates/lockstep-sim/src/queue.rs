//! The event queue: pending inputs ordered by `(time, sequence)`.
//!
//! The sequence number is the tie-break that makes the order total: two events due at the same
//! millisecond pop in the order they were scheduled, on every platform and every run. Without it
//! a binary heap would pop equal keys in an order that depends on its internal layout.

use crate::ids::{MessageId, NodeId, TimerId};
use crate::time::VirtualTime;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What is due: a message arriving, a timer firing, a user intervention taking effect, a pause
/// ending, or a buffered input being handed to a node that has just resumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    Delivery(MessageId),
    Timer(NodeId, TimerId),
    Intervention(u32),
    /// A pause with a set length ends (the number tells which pause, so a stale one is ignored).
    PauseEnds(NodeId, u32),
    /// Hand the oldest buffered input to a node that has resumed.
    Drain(NodeId),
    /// The monitor gives up on a crashed primary (the number is its crash count then, so a
    /// primary that has restarted meanwhile is left alone).
    Failover(NodeId, u32),
    /// A delayed restart comes due (the number is the node's crash count then).
    Restart(NodeId, u32),
}

/// Time and sequence packed into one `u64` (time in the top 24 bits, sequence in the low 40),
/// so the heap compares and moves 16-byte entries. 24 bits of milliseconds reach past four
/// virtual hours, beyond any scenario's end (at most one hour); a later time is kept as the
/// horizon, which is never reached. 40 bits of sequence allow a trillion schedulings.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    due: Due,
}

const SEQUENCE_BITS: u32 = 40;
const HORIZON: u64 = (1 << (64 - SEQUENCE_BITS)) - 1;
const _: () = assert!(
    HORIZON > crate::scenario::MAX_END_MS,
    "the horizon lies beyond every run"
);

impl Entry {
    fn time(&self) -> VirtualTime {
        VirtualTime(self.key >> SEQUENCE_BITS)
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

/// A min-queue of due inputs. Cancelling is lazy: the simulation skips entries whose subject
/// was cancelled, which keeps `schedule` and `pop` at O(log n).
#[derive(Clone, Debug, Default)]
pub struct EventQueue {
    heap: BinaryHeap<Reverse<Entry>>,
    next_sequence: u64,
}

impl EventQueue {
    pub fn schedule(&mut self, time: VirtualTime, due: Due) {
        let sequence = self.next_sequence & ((1 << SEQUENCE_BITS) - 1);
        self.next_sequence += 1;
        let key = (time.0.min(HORIZON) << SEQUENCE_BITS) | sequence;
        self.heap.push(Reverse(Entry { key, due }));
    }

    pub fn pop(&mut self) -> Option<(VirtualTime, Due)> {
        self.heap
            .pop()
            .map(|Reverse(entry)| (entry.time(), entry.due))
    }

    pub fn peek_time(&self) -> Option<VirtualTime> {
        self.heap.peek().map(|Reverse(entry)| entry.time())
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_by_time_then_by_scheduling_order() {
        let mut queue = EventQueue::default();
        queue.schedule(VirtualTime(5), Due::Intervention(0));
        queue.schedule(VirtualTime(3), Due::Intervention(1));
        queue.schedule(VirtualTime(5), Due::Intervention(2));
        queue.schedule(VirtualTime(3), Due::Intervention(3));
        let order: Vec<Due> = std::iter::from_fn(|| queue.pop().map(|(_, due)| due)).collect();
        assert_eq!(
            order,
            vec![
                Due::Intervention(1),
                Due::Intervention(3),
                Due::Intervention(0),
                Due::Intervention(2)
            ]
        );
    }

    #[test]
    fn times_past_the_horizon_sort_last_and_report_the_horizon() {
        let mut queue = EventQueue::default();
        queue.schedule(VirtualTime(u64::MAX), Due::Intervention(0));
        queue.schedule(VirtualTime(3_600_000), Due::Intervention(1));
        assert_eq!(
            queue.pop(),
            Some((VirtualTime(3_600_000), Due::Intervention(1)))
        );
        assert_eq!(queue.peek_time(), Some(VirtualTime(HORIZON)));
    }
}
