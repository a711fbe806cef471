//! What a run shows from outside: its cast, clock, trace, network, nodes, interventions, hash,
//! whether it is over, the resource's value and the lock's holder.
//!
//! Reading only: nothing here changes the run.

use super::{Node, Sim, Slot};
use crate::engine::trace::{TraceEvent, trace_hash};
use crate::scenario::budget::BudgetSpent;
use crate::scenario::cast::Cast;
use crate::world::ids::NodeId;
use crate::world::intervention::Intervention;
use crate::world::network::Network;
use crate::world::time::VirtualTime;

impl Sim {
    pub fn cast(&self) -> &Cast {
        &self.cast
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn now(&self) -> VirtualTime {
        self.now
    }

    pub fn end(&self) -> VirtualTime {
        self.end
    }

    pub fn trace(&self) -> &[TraceEvent] {
        &self.trace
    }

    pub fn network(&self) -> &Network {
        &self.network
    }

    pub fn slot(&self, node: NodeId) -> Option<&Slot> {
        self.slots.get(node.index())
    }

    pub fn interventions(&self) -> &[Intervention] {
        &self.interventions
    }

    pub fn hash(&self) -> String {
        trace_hash(&self.trace)
    }

    /// Whether nothing is left to happen before the end of the run, or the run used up its
    /// budget.
    pub fn is_finished(&self) -> bool {
        self.budget_spent || self.queue.peek_time().is_none_or(|t| t > self.end)
    }

    /// Whether the run stopped early, at [`RUN_BUDGET`] inputs, and when.
    pub fn stopped_by_budget(&self) -> Option<BudgetSpent> {
        self.budget_spent.then_some(BudgetSpent {
            at: self.now,
            end: self.end,
        })
    }

    /// How many due inputs the engine has handled so far, the silent ones included.
    pub fn inputs_handled(&self) -> u64 {
        self.handled
    }

    /// The value the resource holds now.
    pub fn resource_value(&self) -> i64 {
        match self
            .slots
            .get(self.cast.resource().index())
            .map(|slot| &slot.node)
        {
            Some(Node::Resource(resource)) => resource.value(),
            _ => 0,
        }
    }

    /// When the next input is due, if any is queued.
    pub fn next_due(&self) -> Option<VirtualTime> {
        self.queue.peek_time()
    }

    /// Writes everything that decides the rest of the run — the nodes, clocks, processes,
    /// queue, network, random stream, interventions and the invariants' memory — and nothing of
    /// the past that does not (the trace, the count of inputs handled). Two simulations that
    /// write the same text go on the same way: the search hashes it to skip states seen before.
    pub fn write_state(&self, out: &mut impl std::fmt::Write) -> std::fmt::Result {
        write!(
            out,
            "{:?}{:?}{}{:?}{:?}{:?}{:?}{:?}{}{}",
            self.now,
            self.queue,
            self.rng.position(),
            self.network,
            self.slots,
            self.timers,
            self.interventions,
            self.checker,
            self.believers,
            self.budget_spent,
        )
    }

    /// Who holds the lock now, in the lock service's own terms: the one client with a live lease
    /// on a majority of Redlock's nodes or at a front node; `None` if nobody does, or if more
    /// than one does (the service then gives no single answer).
    pub fn lock_holder(&self) -> Option<NodeId> {
        let mut holders = self.holders();
        match (holders.next(), holders.next()) {
            (Some(holder), None) => Some(holder),
            _ => None,
        }
    }
}
