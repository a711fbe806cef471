//! A linearizability checker for one register, in the manner of Knossos and Porcupine.
//!
//! A [`History`] is what clients saw: operations, each with the time it was invoked (the
//! request sent) and answered (the reply received, or never), and what it did (read a value,
//! wrote one, or read one value and wrote another as one step). It is linearizable if the
//! operations can be put in one order that respects real time (an operation answered before
//! another was invoked comes first) and that a single sequential register, starting from the
//! initial value, would produce. [`check`] searches for that order depth first (Wing & Gong, as
//! refined by Lowe), remembering every (set of operations placed, register value) it has tried,
//! so histories with thousands of operations and little overlap are checked in one pass with
//! little backtracking (5,000 operations take well under a second). The search has a budget:
//! past it the verdict is [`Verdict::Undecided`], never a hang, and it never panics.
//!
//! What it must not do: read a trace. Turning a run into a history is `register_history`'s job;
//! this module only knows registers and time, so any history (hand-made or recorded) can be
//! checked.
//!
//! Only the crate's tests use it (`tests/sim/data.rs`, `support.rs`), so it is compiled only with
//! the `history-check` feature, which is on by default and off in the page.

use crate::world::ids::NodeId;
use crate::world::time::VirtualTime;
use std::collections::BTreeSet;
use std::fmt;

/// What an operation did to the register, as its client saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Returned `value`.
    Read { value: i64 },
    /// Set the register to `value`.
    Write { value: i64 },
    /// Read `read` and set the register to `write`, as one step (a job done under the lock:
    /// read, work, write).
    Update { read: i64, write: i64 },
}

impl Effect {
    /// The sequential register: the value after this effect, or `None` if the effect cannot
    /// happen on a register holding `value`.
    fn apply(self, value: i64) -> Option<i64> {
        match self {
            Effect::Read { value: read } => (read == value).then_some(value),
            Effect::Write { value: written } => Some(written),
            Effect::Update { read, write } => (read == value).then_some(write),
        }
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Effect::Read { value } => write!(f, "read {value}"),
            Effect::Write { value } => write!(f, "wrote {value}"),
            Effect::Update { read, write } => write!(f, "read {read} and wrote {write}"),
        }
    }
}

/// One operation of one client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operation {
    pub client: NodeId,
    /// When the client sent its request.
    pub invoked: VirtualTime,
    /// When the client received the reply; `None` if it never did (the operation took effect
    /// at some time after `invoked`, or it would not be in the history).
    pub answered: Option<VirtualTime>,
    pub effect: Effect,
}

impl Operation {
    /// The last moment the operation can have taken effect: never answered means no limit.
    fn deadline(&self) -> VirtualTime {
        self.answered.unwrap_or(VirtualTime(u64::MAX))
    }
}

/// Everything clients saw of one register.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    pub initial: i64,
    pub operations: Vec<Operation>,
}

/// How many states the search may visit before it gives up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget(pub u32);

impl Budget {
    /// Plenty for any run of the catalogue or of the generated tests.
    pub const DEFAULT: Budget = Budget(200_000);
}

/// The checker's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// One valid order: indices into the history's operations.
    Linearizable { order: Vec<usize> },
    /// No order works; the longest order the search found before it got stuck.
    NotLinearizable(Stuck),
    /// The budget ran out before the search finished.
    Undecided { visited: u32 },
}

impl Verdict {
    pub fn is_linearizable(&self) -> bool {
        matches!(self, Verdict::Linearizable { .. })
    }
}

/// Where the search got furthest: after `order` the register held `value`, and none of the
/// operations that could come next (`next`) fits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stuck {
    pub order: Vec<usize>,
    pub value: i64,
    pub next: Vec<usize>,
}

impl Stuck {
    /// The dead end in words, naming clients with `name`.
    pub fn explain(&self, history: &History, name: impl Fn(NodeId) -> String) -> String {
        let describe = |index: &usize| {
            history
                .operations
                .get(*index)
                .map_or_else(String::new, |op| {
                    let answered = op.answered.map_or_else(
                        || "never answered".to_owned(),
                        |t| format!("answered at {t}"),
                    );
                    format!(
                        "{} {} (invoked at {}, {answered})",
                        name(op.client),
                        op.effect,
                        op.invoked
                    )
                })
        };
        let next: Vec<String> = self.next.iter().map(describe).collect();
        format!(
            "no order of the operations fits one register: after {} of {} operations in order, \
             the register holds {}, and none of the operations that could come next fits: {}",
            self.order.len(),
            history.operations.len(),
            self.value,
            next.join("; ")
        )
    }
}

/// One level of the depth-first search: the operations that may come next, and which of them
/// is being tried.
struct Frame {
    candidates: Vec<usize>,
    tried: usize,
    /// The register's value before this level's operation.
    value: i64,
}

/// Checks `history` against a sequential register, visiting at most `budget` states.
pub fn check(history: &History, budget: Budget) -> Verdict {
    // The search works on positions in invocation order, so the operations that may come next
    // are found by scanning a short window, not the whole history.
    let mut by_invocation: Vec<usize> = (0..history.operations.len()).collect();
    by_invocation.sort_by_key(|i| history.operations.get(*i).map(|op| op.invoked));
    let operations: Vec<Operation> = by_invocation
        .iter()
        .filter_map(|i| history.operations.get(*i).copied())
        .collect();
    let original = |positions: Vec<usize>| -> Vec<usize> {
        positions
            .into_iter()
            .filter_map(|p| by_invocation.get(p).copied())
            .collect()
    };
    let mut placed = Placed::new(operations.len());
    let mut seen: BTreeSet<(Vec<u64>, i64)> = BTreeSet::new();
    let mut order: Vec<usize> = Vec::new();
    let mut stack = vec![Frame {
        candidates: candidates(&operations, &placed),
        tried: 0,
        value: history.initial,
    }];
    let mut furthest = (Vec::new(), history.initial, stack[0].candidates.clone());
    let mut visited = 0u32;
    while let Some(frame) = stack.last_mut() {
        if order.len() == operations.len() {
            return Verdict::Linearizable {
                order: original(order),
            };
        }
        let Some(&position) = frame.candidates.get(frame.tried) else {
            // Every candidate failed: undo this level's choice and try the parent's next.
            stack.pop();
            if let Some(undone) = order.pop() {
                placed.remove(undone);
            }
            continue;
        };
        frame.tried += 1;
        let Some(after) = operations
            .get(position)
            .and_then(|op| op.effect.apply(frame.value))
        else {
            continue;
        };
        placed.insert(position);
        if !seen.insert((placed.words.clone(), after)) {
            placed.remove(position);
            continue;
        }
        visited += 1;
        if visited > budget.0 {
            return Verdict::Undecided { visited: budget.0 };
        }
        order.push(position);
        let next = candidates(&operations, &placed);
        if order.len() > furthest.0.len() {
            furthest = (order.clone(), after, next.clone());
        }
        stack.push(Frame {
            candidates: next,
            tried: 0,
            value: after,
        });
    }
    let (order, value, next) = furthest;
    Verdict::NotLinearizable(Stuck {
        order: original(order),
        value,
        next: original(next),
    })
}

/// The positions not yet placed that may come next: those invoked no later than every
/// unplaced operation's deadline (an operation answered before another was invoked must come
/// before it). `operations` is in invocation order and a deadline is never before its own
/// invocation, so the scan stops at the first operation invoked after the smallest deadline.
fn candidates(operations: &[Operation], placed: &Placed) -> Vec<usize> {
    let mut horizon = VirtualTime(u64::MAX);
    let mut next = Vec::new();
    for (position, op) in operations
        .iter()
        .enumerate()
        .skip(placed.first_unplaced())
        .filter(|(position, _)| !placed.contains(*position))
    {
        if op.invoked > horizon {
            break;
        }
        horizon = horizon.min(op.deadline());
        next.push(position);
    }
    // An operation taken before the horizon settled may have been invoked after it.
    next.retain(|p| operations.get(*p).is_some_and(|op| op.invoked <= horizon));
    next
}

/// The set of operations placed so far, as bits (the memo's key).
struct Placed {
    words: Vec<u64>,
}

impl Placed {
    fn new(operations: usize) -> Placed {
        Placed {
            words: vec![0; operations.div_ceil(64)],
        }
    }

    /// A lower bound of the first unplaced position: placed operations are mostly a prefix.
    fn first_unplaced(&self) -> usize {
        self.words
            .iter()
            .position(|word| *word != u64::MAX)
            .map_or(self.words.len() * 64, |word| word * 64)
    }

    fn contains(&self, index: usize) -> bool {
        self.words
            .get(index / 64)
            .is_some_and(|word| word & (1 << (index % 64)) != 0)
    }

    fn insert(&mut self, index: usize) {
        if let Some(word) = self.words.get_mut(index / 64) {
            *word |= 1 << (index % 64);
        }
    }

    fn remove(&mut self, index: usize) {
        if let Some(word) = self.words.get_mut(index / 64) {
            *word &= !(1 << (index % 64));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(client: u16, invoked: u64, answered: Option<u64>, effect: Effect) -> Operation {
        Operation {
            client: NodeId(client),
            invoked: VirtualTime(invoked),
            answered: answered.map(VirtualTime),
            effect,
        }
    }

    fn read(value: i64) -> Effect {
        Effect::Read { value }
    }

    fn write(value: i64) -> Effect {
        Effect::Write { value }
    }

    fn history(operations: Vec<Operation>) -> History {
        History {
            initial: 0,
            operations,
        }
    }

    #[test]
    fn an_empty_history_is_linearizable() {
        assert!(check(&history(Vec::new()), Budget::DEFAULT).is_linearizable());
    }

    #[test]
    fn sequential_operations_are_checked_in_their_real_time_order() {
        let h = history(vec![
            op(1, 0, Some(10), write(1)),
            op(2, 20, Some(30), read(1)),
            op(1, 40, Some(50), write(2)),
            op(2, 60, Some(70), read(2)),
        ]);
        assert_eq!(
            check(&h, Budget::DEFAULT),
            Verdict::Linearizable {
                order: vec![0, 1, 2, 3]
            }
        );
    }

    #[test]
    fn a_read_of_an_overwritten_value_after_the_overwrite_was_answered_is_not_linearizable() {
        let h = history(vec![
            op(1, 0, Some(10), write(1)),
            op(1, 20, Some(30), write(2)),
            op(2, 40, Some(50), read(1)),
        ]);
        let Verdict::NotLinearizable(stuck) = check(&h, Budget::DEFAULT) else {
            panic!("a stale read must be caught");
        };
        assert_eq!(stuck.order, vec![0, 1]);
        assert_eq!(stuck.value, 2);
        assert_eq!(stuck.next, vec![2]);
        assert_eq!(
            stuck.explain(&h, |n| format!("client-{}", n.0)),
            "no order of the operations fits one register: after 2 of 3 operations in order, \
             the register holds 2, and none of the operations that could come next fits: \
             client-2 read 1 (invoked at t=40 ms, answered at t=50 ms)"
        );
    }

    #[test]
    fn a_read_concurrent_with_a_write_may_see_either_value() {
        for seen in [0, 1] {
            let h = history(vec![
                op(1, 0, Some(50), write(1)),
                op(2, 10, Some(20), read(seen)),
            ]);
            assert!(check(&h, Budget::DEFAULT).is_linearizable(), "read {seen}");
        }
        let h = history(vec![
            op(1, 0, Some(50), write(1)),
            op(2, 10, Some(20), read(7)),
        ]);
        assert!(
            !check(&h, Budget::DEFAULT).is_linearizable(),
            "7 was never written"
        );
    }

    #[test]
    fn the_search_backtracks_to_find_the_one_order_that_works() {
        // Three overlapping writes; client 4's reads, one after another, pin the order to 3,
        // then 1, then 2, so the first two orders tried (1 first, then 2 first) must be undone.
        let h = history(vec![
            op(1, 0, Some(100), write(1)),
            op(2, 0, Some(100), write(2)),
            op(3, 0, Some(100), write(3)),
            op(4, 1, Some(2), read(3)),
            op(4, 3, Some(4), read(1)),
            op(4, 101, Some(110), read(2)),
        ]);
        let Verdict::Linearizable { order } = check(&h, Budget::DEFAULT) else {
            panic!("3, 1, 2 works");
        };
        let writes: Vec<usize> = order.into_iter().filter(|i| *i < 3).collect();
        assert_eq!(writes, vec![2, 0, 1]);
    }

    #[test]
    fn two_updates_from_the_same_value_lose_one_of_them() {
        // Both read 0 and wrote 1 under "the lock": one increment is lost.
        let update = Effect::Update { read: 0, write: 1 };
        let h = history(vec![
            op(1, 0, Some(100), update),
            op(2, 50, Some(150), update),
        ]);
        assert!(!check(&h, Budget::DEFAULT).is_linearizable());
        let h = history(vec![
            op(1, 0, Some(100), update),
            op(2, 50, Some(150), Effect::Update { read: 1, write: 2 }),
        ]);
        assert!(check(&h, Budget::DEFAULT).is_linearizable());
    }

    #[test]
    fn a_write_never_answered_may_take_effect_any_time_after_it_was_sent() {
        let h = history(vec![
            op(1, 0, None, write(5)),
            op(2, 10, Some(20), read(0)),
            op(2, 1_000, Some(1_010), read(5)),
        ]);
        assert!(check(&h, Budget::DEFAULT).is_linearizable());
        let h = history(vec![
            op(1, 500, None, write(5)),
            op(2, 10, Some(20), read(5)),
        ]);
        assert!(
            !check(&h, Budget::DEFAULT).is_linearizable(),
            "it cannot take effect before it was sent"
        );
    }

    #[test]
    fn a_search_past_its_budget_is_undecided_not_wrong() {
        // Many overlapping writes of distinct values and an impossible read: the search must
        // try many orders before it can say no.
        let mut operations: Vec<Operation> = (0..12)
            .map(|i| op(i, 0, Some(1_000), write(i64::from(i) + 1)))
            .collect();
        operations.push(op(99, 0, Some(1_000), read(-1)));
        let h = history(operations);
        assert_eq!(check(&h, Budget(50)), Verdict::Undecided { visited: 50 });
    }

    #[test]
    fn long_histories_with_little_overlap_are_checked_quickly() {
        let operations: Vec<Operation> = (0..5_000u64)
            .map(|i| {
                let value = i64::try_from(i / 2).unwrap_or_default();
                let effect = if i % 2 == 0 {
                    write(value)
                } else {
                    read(value)
                };
                op(1 + (i % 3) as u16, i * 10, Some(i * 10 + 15), effect)
            })
            .collect();
        assert!(check(&history(operations), Budget::DEFAULT).is_linearizable());
    }
}
