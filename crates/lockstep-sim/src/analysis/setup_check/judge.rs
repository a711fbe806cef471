//! One checked run, judged by the two kinds of promise, as the chaos lab separates them:
//! beliefs (two clients think they hold the lock; the service's own one-lease rule) and data
//! (an update lost, a stale write accepted, a charge repeated: whichever the user's write can
//! suffer). It reuses the chaos test's judging ([`run_chaos`]'s checks) and keeps no trace.
//!
//! [`run_chaos`]: crate::analysis::chaos::run_chaos

use super::generate::is_register;
use crate::analysis::verification::{Finding, Outcome, judge_data};
use crate::engine::sim::Sim;
use crate::models::client::Access;
use crate::scenario::types::Scenario;
use crate::vocabulary::invariant::Invariant;
use serde::{Deserialize, Serialize};

/// The harm the user's data can come to, by what the write is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DataHarm {
    /// A read-modify-write overwrote an update its writer never read.
    LostUpdate,
    /// A write from a client that no longer held the lock was accepted.
    StaleWrite,
    /// A payment was charged twice.
    DoubleCharge,
}

impl DataHarm {
    /// The harm a write of this access can come to, and the invariant that names it.
    pub fn of(access: &Access) -> DataHarm {
        match access {
            Access::ReadModifyWrite {} | Access::OptimisticUpdate { .. } => DataHarm::LostUpdate,
            Access::BlindWrite { .. } | Access::Decrement { .. } => DataHarm::StaleWrite,
            Access::Charge { .. } => DataHarm::DoubleCharge,
        }
    }

    pub fn invariant(self) -> Invariant {
        match self {
            DataHarm::LostUpdate => Invariant::NoLostUpdate,
            DataHarm::StaleWrite => Invariant::NoStaleWrite,
            DataHarm::DoubleCharge => Invariant::NoDoubleCharge,
        }
    }

    /// "an update was lost", for "in 37 % of runs, …".
    pub fn happened(self) -> &'static str {
        match self {
            DataHarm::LostUpdate => "an update was lost",
            DataHarm::StaleWrite => "a stale write was accepted",
            DataHarm::DoubleCharge => "a payment was charged twice",
        }
    }
}

/// One run of a checked setup, judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupRun {
    pub seed: u64,
    /// Two clients believed they held the lock at once, or the service had two live leases.
    pub beliefs_overlapped: bool,
    /// The user's data came to its harm.
    pub data_harmed: bool,
    /// A write was accepted with a token below one already granted (even where it harmed
    /// nothing).
    pub stale_write: bool,
    /// The run could not be judged (it stopped at the event budget or did not start).
    pub unjudged: bool,
    pub events: u64,
}

/// Runs `scenario` to its end and judges it.
pub fn judge_run(scenario: &Scenario, harm: DataHarm) -> SetupRun {
    let seed = scenario.seed;
    let unjudged = SetupRun {
        seed,
        beliefs_overlapped: false,
        data_harmed: false,
        stale_write: false,
        unjudged: true,
        events: 0,
    };
    let Ok(mut sim) = Sim::new(scenario) else {
        return unjudged;
    };
    let initial = sim.resource_value();
    sim.run_to_end();
    if sim.stopped_by_budget().is_some() {
        return unjudged;
    }
    let broke = |invariant: Invariant| sim.trace().iter().any(|e| e.broke.contains(invariant));
    let increments_lost = is_register(&scenario.resource) && harm == DataHarm::LostUpdate && {
        let finding = judge_data(&sim, initial);
        matches!(finding, Finding::ChaosData { .. }) && finding.outcome() == Outcome::Fail
    };
    SetupRun {
        seed,
        beliefs_overlapped: broke(Invariant::OneBeliever) || broke(Invariant::OneLease),
        data_harmed: broke(harm.invariant()) || increments_lost,
        stale_write: broke(Invariant::NoStaleWrite),
        unjudged: false,
        events: u64::try_from(sim.trace().len()).unwrap_or(u64::MAX),
    }
}
