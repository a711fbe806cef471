//! One chaos run, judged: which invariants it broke and when each broke first, and the article's
//! data check (were the increments clients were told about kept?). A run that cannot be judged
//! says why as data; nothing here panics. The trace is dropped once judged: a [`ChaosRun`] is
//! small enough to cross to and from a worker by the thousand.

use super::settings::ChaosSettings;
use crate::invariant::Invariant;
use crate::sim::Sim;
use crate::time::VirtualTime;
use crate::verification::{Finding, Outcome, judge_data};
use serde::{Deserialize, Serialize};

/// The first time a run broke one invariant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Broken {
    pub invariant: Invariant,
    pub first_at: VirtualTime,
    /// The index in the trace of the event that broke it first.
    pub first_event: usize,
}

/// The article's data check on one run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "verdict")]
pub enum DataVerdict {
    /// Every increment a client was told was applied is in the final value, and the accepted
    /// writes, applied one after another, give it.
    Kept { accepted: u32 },
    /// Increments were lost: `lost` that clients were told were applied are missing, and the
    /// `diverged_at`-th accepted write (counting from 1) overwrote increments its writer never
    /// read.
    Lost {
        accepted: u32,
        lost: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        diverged_at: Option<u32>,
    },
    /// The resource accepted no write, so there was nothing to check.
    NothingAccepted,
    /// The run could not be judged (it did not start, or stopped at the event budget).
    Unjudged { reason: String },
}

impl DataVerdict {
    pub fn is_lost(&self) -> bool {
        matches!(self, DataVerdict::Lost { .. })
    }
}

/// One judged chaos run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChaosRun {
    pub seed: u64,
    /// How many events the run had.
    pub events: u64,
    /// Each invariant the run broke, in [`Invariant::ALL`]'s order.
    pub broken: Vec<Broken>,
    pub data: DataVerdict,
}

impl ChaosRun {
    /// The earliest violation in the run, if any.
    pub fn first_violation(&self) -> Option<Broken> {
        self.broken.iter().copied().min_by_key(|b| b.first_event)
    }

    pub fn broke(&self, invariant: Invariant) -> bool {
        self.broken.iter().any(|b| b.invariant == invariant)
    }
}

/// Generates the run with this seed, runs it to its end and judges it.
pub fn run_chaos(settings: &ChaosSettings, seed: u64) -> ChaosRun {
    let scenario = settings.scenario(seed);
    let mut sim = match Sim::new(&scenario) {
        Ok(sim) => sim,
        Err(error) => {
            return ChaosRun {
                seed,
                events: 0,
                broken: Vec::new(),
                data: DataVerdict::Unjudged {
                    reason: error.to_string(),
                },
            };
        }
    };
    let initial = sim.resource_value();
    sim.run_to_end();
    let trace = sim.trace();
    let broken = Invariant::ALL
        .into_iter()
        .filter_map(|invariant| {
            trace
                .iter()
                .position(|event| event.broke.contains(invariant))
                .map(|first_event| Broken {
                    invariant,
                    first_at: trace[first_event].time,
                    first_event,
                })
        })
        .collect();
    let data = match sim.stopped_by_budget() {
        Some(spent) => DataVerdict::Unjudged {
            reason: spent.to_string(),
        },
        None => verdict(judge_data(&sim, initial)),
    };
    ChaosRun {
        seed,
        events: u64::try_from(trace.len()).unwrap_or(u64::MAX),
        broken,
        data,
    }
}

fn verdict(finding: Finding) -> DataVerdict {
    let outcome = finding.outcome();
    match finding {
        Finding::ChaosData { accepted: 0, .. } => DataVerdict::NothingAccepted,
        Finding::ChaosData {
            accepted,
            divergence,
            told_but_lost,
            ..
        } => match outcome {
            Outcome::Pass => DataVerdict::Kept { accepted },
            Outcome::Fail => DataVerdict::Lost {
                accepted,
                lost: told_but_lost,
                diverged_at: divergence.map(|d| d.nth),
            },
        },
        other => DataVerdict::Unjudged {
            reason: other.to_string(),
        },
    }
}
