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
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Due {
    Delivery(MessageId),
    Timer(NodeId, TimerId),
    Intervention(u32),
    /// A pause with a set length ends (the number tells which pause, so a stale one is ignored).
    PauseEnds(NodeId, u32),
    /// Hand the oldest buffered input to a node that has resumed.
    Drain(NodeId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    time: VirtualTime,
    sequence: u64,
    due: Due,
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
        let sequence = self.next_sequence;
        self.next_sequence += 1;
        self.heap.push(Reverse(Entry {
            time,
            sequence,
            due,
        }));
    }

    pub fn pop(&mut self) -> Option<(VirtualTime, Due)> {
        self.heap
            .pop()
            .map(|Reverse(entry)| (entry.time, entry.due))
    }

    pub fn peek_time(&self) -> Option<VirtualTime> {
        self.heap.peek().map(|Reverse(entry)| entry.time)
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
}
