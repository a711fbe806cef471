//! A run's budget: how much simulating one run may take. Memory grows with every input the
//! engine handles (each message and timer is kept for the timeline), so a scenario that asks for
//! a heartbeat every millisecond for an hour, or an hour of Redlock with eight clients, would
//! freeze a browser tab or exhaust a machine.
//!
//! Two guards: `scenario::estimate::check` refuses, before the run starts, a scenario whose periodic work alone
//! (its estimated inputs) is over [`RUN_BUDGET`]; and the engine stops any run at
//! [`RUN_BUDGET`] inputs and says so ([`BudgetSpent`]) — the step never fails. This module
//! decides nothing about what happens in a run.

use crate::world::time::VirtualTime;
use std::fmt;

/// The most inputs (message deliveries, timers, interventions — recorded or silent) one run may
/// handle. The largest generated runs (the seed's chaos test on Redlock: about 143,000) fit with
/// room to spare.
pub const RUN_BUDGET: u64 = 250_000;

/// A run that stopped because it reached [`RUN_BUDGET`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BudgetSpent {
    /// When it stopped.
    pub at: VirtualTime,
    /// When it would have ended.
    pub end: VirtualTime,
}

impl fmt::Display for BudgetSpent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the run stopped at {} ms of its {} ms: it reached the budget of {RUN_BUDGET} \
             simulated inputs (messages and timers) per run. Shorten end_ms, make timers longer, \
             or use fewer clients.",
            self.at.0, self.end.0
        )
    }
}
