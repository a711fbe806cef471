//! The event queue: pending inputs ordered by `(time, sequence)`.
//!
//! The sequence number is the tie-break that makes the order total: two events due at the same
//! millisecond pop in the order they were scheduled, on every platform and every run. Without it
//! a binary heap would pop equal keys in an order that depends on its internal layout.

use crate::world::ids::{MessageId, NodeId, TimerId};
use crate::world::time::VirtualTime;
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
/// horizon, which is never reached. The sequence's top bit is set for what the run schedules and
/// clear for the upfront entries, whose sequence is their ordinal: at one millisecond every
/// upfront entry pops first, in ordinal order, even one added after the run began
/// ([`EventQueue::add_upfront`]). 39 bits of sequence allow half a trillion schedulings.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    due: Due,
}

const SEQUENCE_BITS: u32 = 40;
const SCHEDULED: u64 = 1 << (SEQUENCE_BITS - 1);
const HORIZON: u64 = (1 << (64 - SEQUENCE_BITS)) - 1;
const _: () = assert!(
    HORIZON > crate::scenario::types::MAX_END_MS,
    "the horizon lies beyond every run"
);

impl Entry {
    fn new(time: VirtualTime, sequence: u64, due: Due) -> Entry {
        Entry {
            key: (time.0.min(HORIZON) << SEQUENCE_BITS) | sequence,
            due,
        }
    }

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
///
/// Inputs known before the run starts (the interventions of a chaos run: a hundred or more, most
/// of them far in the future) wait in a list sorted once, outside the heap; the heap holds only
/// what the run schedules (a dozen or so entries), so each pop sifts through a few levels instead
/// of seven. Both parts share one key space and keys are unique, so taking the smaller of their
/// two fronts pops exactly the order one heap of everything would.
#[derive(Clone, Debug, Default)]
pub struct EventQueue {
    heap: BinaryHeap<Reverse<Entry>>,
    /// Sorted latest first: the next one due is at the end.
    upfront: Vec<Entry>,
    next_sequence: u64,
}

impl EventQueue {
    /// A queue holding `upfront`, scheduled in the order given, before anything else.
    pub fn with_upfront(upfront: impl IntoIterator<Item = (VirtualTime, Due)>) -> EventQueue {
        let mut entries: Vec<Entry> = upfront
            .into_iter()
            .zip(0..)
            .map(|((time, due), ordinal)| Entry::new(time, ordinal, due))
            .collect();
        entries.sort_unstable_by_key(|entry| Reverse(entry.key));
        EventQueue {
            upfront: entries,
            ..EventQueue::default()
        }
    }

    pub fn schedule(&mut self, time: VirtualTime, due: Due) {
        let sequence = SCHEDULED | (self.next_sequence & (SCHEDULED - 1));
        self.next_sequence += 1;
        self.heap.push(Reverse(Entry::new(time, sequence, due)));
    }

    /// Adds an upfront entry while the run goes on: it pops exactly where it would have had it
    /// been given to [`EventQueue::with_upfront`] at position `ordinal` (ordinals must differ).
    pub fn add_upfront(&mut self, time: VirtualTime, ordinal: u32, due: Due) {
        let entry = Entry::new(time, u64::from(ordinal), due);
        let at = self.upfront.partition_point(|other| other.key > entry.key);
        self.upfront.insert(at, entry);
    }

    pub fn pop(&mut self) -> Option<(VirtualTime, Due)> {
        let upfront_first = match (self.upfront.last(), self.heap.peek()) {
            (Some(upfront), Some(Reverse(scheduled))) => upfront.key < scheduled.key,
            (upfront, _) => upfront.is_some(),
        };
        let entry = if upfront_first {
            self.upfront.pop()
        } else {
            self.heap.pop().map(|Reverse(entry)| entry)
        };
        entry.map(|entry| (entry.time(), entry.due))
    }

    pub fn peek_time(&self) -> Option<VirtualTime> {
        let upfront = self.upfront.last().map(|entry| entry.key);
        let scheduled = self.heap.peek().map(|Reverse(entry)| entry.key);
        let key = match (upfront, scheduled) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        key.map(|key| VirtualTime(key >> SEQUENCE_BITS))
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty() && self.upfront.is_empty()
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
    fn upfront_entries_pop_as_if_scheduled_first() {
        let mut rng = crate::world::rng::SimRng::from_seed(3);
        let upfront: Vec<(VirtualTime, Due)> = (0..200)
            .map(|i| (VirtualTime(rng.between(0, 5_000)), Due::Intervention(i)))
            .collect();
        let mut queue = EventQueue::with_upfront(upfront.iter().copied());
        let mut reference = std::collections::BTreeMap::new();
        for (sequence, &(time, due)) in upfront.iter().enumerate() {
            reference.insert((time, sequence), due);
        }
        let mut now = 0;
        for sequence in upfront.len()..20_000 {
            if rng.between(0, 2) > 0 {
                let time = VirtualTime(now + rng.between(0, 50));
                let due = Due::Drain(NodeId(u16::try_from(sequence % 100).unwrap_or(0)));
                queue.schedule(time, due);
                reference.insert((time, sequence), due);
            } else {
                let next = reference.first_key_value().map(|(&(time, _), _)| time);
                assert_eq!(queue.peek_time(), next);
                let expected = reference.pop_first().map(|((time, _), due)| (time, due));
                let popped = queue.pop();
                assert_eq!(popped, expected);
                now = popped.map_or(now, |(time, _)| time.0);
            }
        }
        while let Some(((time, _), due)) = reference.pop_first() {
            assert_eq!(queue.pop(), Some((time, due)));
        }
        assert!(queue.is_empty());
    }

    #[test]
    fn an_upfront_entry_added_later_pops_where_it_would_have_from_the_start() {
        let upfront = [
            (VirtualTime(10), Due::Intervention(0)),
            (VirtualTime(20), Due::Intervention(1)),
            (VirtualTime(20), Due::Intervention(2)),
        ];
        let mut reference = EventQueue::with_upfront(upfront);
        let mut late = EventQueue::with_upfront(upfront[..2].iter().copied());
        for queue in [&mut reference, &mut late] {
            queue.schedule(VirtualTime(20), Due::Drain(NodeId(1)));
            queue.schedule(VirtualTime(5), Due::Drain(NodeId(2)));
        }
        assert_eq!(late.pop(), reference.pop());
        late.add_upfront(VirtualTime(20), 2, Due::Intervention(2));
        let rest = |queue: &mut EventQueue| std::iter::from_fn(|| queue.pop()).collect::<Vec<_>>();
        let expected = rest(&mut reference);
        assert_eq!(expected[2], (VirtualTime(20), Due::Intervention(2)));
        assert_eq!(rest(&mut late), expected);
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
