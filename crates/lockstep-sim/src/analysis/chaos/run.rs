//! One chaos run, judged: which invariants it broke and when each broke first, the article's
//! check (at most one accepted writer at any moment) and our data check, which is stronger
//! (were the increments clients were told about kept?). A run that cannot be judged says why
//! as data; nothing here panics. The trace is dropped once judged: a [`ChaosRun`] is
//! small enough to cross to and from a worker by the thousand.

use super::settings::ChaosSettings;
use crate::analysis::verification::{Finding, Outcome, judge_accepted_writers, judge_data};
use crate::engine::sim::Sim;
use crate::vocabulary::invariant::Invariant;
use crate::world::time::VirtualTime;
use serde::{Deserialize, Serialize};

/// The first time a run broke one invariant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Broken {
    pub invariant: Invariant,
    pub first_at: VirtualTime,
    /// The index in the trace of the event that broke it first.
    pub first_event: usize,
}

/// The article's check on one run: was there ever more than one accepted writer at a moment
/// (a client with a write under way, from its sending to its acceptance, that the resource
/// accepted)?
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "verdict")]
pub enum WritersVerdict {
    /// Never two accepted writers at once (also when no write was accepted, as the article's
    /// `<= 1` has it).
    AtMostOne { accepted: u32 },
    /// Two clients each had an accepted write under way at the moment of `first_event` (its
    /// trace index), at `first_at`.
    TwoAtOnce {
        first_event: usize,
        first_at: VirtualTime,
    },
    /// The run could not be judged (it did not start, or stopped at the event budget).
    Unjudged { reason: String },
}

impl WritersVerdict {
    /// Where the article's check first failed, if it did.
    pub fn two_at_once(&self) -> Option<(usize, VirtualTime)> {
        match *self {
            WritersVerdict::TwoAtOnce {
                first_event,
                first_at,
            } => Some((first_event, first_at)),
            _ => None,
        }
    }
}

/// Our data check on one run (stronger than the article's check).
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
    /// The article's check.
    pub writers: WritersVerdict,
    /// Our data check.
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
                writers: WritersVerdict::Unjudged {
                    reason: error.to_string(),
                },
                data: DataVerdict::Unjudged {
                    reason: error.to_string(),
                },
            };
        }
    };
    let initial = sim.resource_value();
    sim.run_to_end();
    let trace = sim.trace();
    // One pass: the first event to break each invariant.
    let mut firsts: [Option<Broken>; Invariant::ALL.len()] = [None; Invariant::ALL.len()];
    for (index, event) in trace.iter().enumerate() {
        for invariant in event.broke.iter() {
            firsts[invariant as usize].get_or_insert(Broken {
                invariant,
                first_at: event.time,
                first_event: index,
            });
        }
    }
    let broken = firsts.into_iter().flatten().collect();
    let (writers, data) = match sim.stopped_by_budget() {
        Some(spent) => (
            WritersVerdict::Unjudged {
                reason: spent.to_string(),
            },
            DataVerdict::Unjudged {
                reason: spent.to_string(),
            },
        ),
        None => (
            writers_verdict(judge_accepted_writers(&sim)),
            verdict(judge_data(&sim, initial)),
        ),
    };
    ChaosRun {
        seed,
        events: u64::try_from(trace.len()).unwrap_or(u64::MAX),
        broken,
        writers,
        data,
    }
}

fn writers_verdict(finding: Finding) -> WritersVerdict {
    match finding {
        Finding::AcceptedWriters {
            two_writers: Some(two),
            ..
        } => WritersVerdict::TwoAtOnce {
            first_event: two.event,
            first_at: two.at,
        },
        Finding::AcceptedWriters { accepted, .. } => WritersVerdict::AtMostOne { accepted },
        other => WritersVerdict::Unjudged {
            reason: other.to_string(),
        },
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
