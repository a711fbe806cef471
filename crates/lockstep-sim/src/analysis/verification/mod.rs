//! The article's three verification tests, run against a lock service: a client paused for
//! twice its TTL has its stale write rejected; a client whose lease expired cannot release the
//! new holder's lock; and a chaos run (pauses, partitions and the lock service's failover),
//! judged twice. First by the article's own check (`accepted_writers`: at most one accepted
//! writer at any moment), then by ours on the data (`data_check`: the register ends at what
//! the accepted increments give applied one after another, and no increment a client was told
//! was applied is missing), which is stronger: every run that fails the article's check fails
//! ours, and the fencing gap fails ours only. Each check returns a [`Verdict`] whose
//! [`Finding`] says why it passed or failed. The native tests assert these verdicts for every
//! lock service and the app only shows them, so there is one implementation of each.
//!
//! This module builds the tests' scenarios and judges their traces; it must not change how
//! anything runs.

mod accepted_writers;
mod data_check;
mod evidence;
mod finding;
mod stale_release;
mod stale_write;
mod two_clients;

pub use accepted_writers::{accepted_writers_check, judge_accepted_writers};
pub use data_check::{data_check, judge_data};
pub use evidence::{Divergence, LostIncrement, TwoWriters};
pub use finding::{Finding, Outcome};
pub use stale_release::stale_release;
pub use stale_write::stale_write;
pub use two_clients::{Subject, TTL_MS, two_clients};

use crate::analysis::chaos::{Chaos, ChaosBackend};
use crate::engine::sim::Sim;
use crate::models::resource::Fencing;
use crate::scenario::types::Scenario;
use crate::vocabulary::message::ReleaseMethod;
use strum::VariantArray;

/// The article's three tests, in its order; the third, the chaos test, is judged twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::VariantArray)]
pub enum Test {
    /// "rejects work from a client that paused past expiry".
    StaleWrite,
    /// "does not release a lock held by another client".
    StaleRelease,
    /// "maintains at most one holder under chaos", with the article's own check: at most one
    /// accepted writer at any moment.
    ChaosAcceptedWriters,
    /// The same chaos run, judged by our data check rather than the article's.
    ChaosData,
}

impl Test {
    /// Every variant, in declaration order: strum's `VARIANTS` as an array, its length checked at
    /// compile time, so a new variant cannot be left out.
    ///
    /// The article's order.
    pub const ALL: [Test; 4] = *Test::VARIANTS
        .as_array()
        .expect("ALL's length is the number of variants");

    /// What the test claims, as a reader would state it, and whose check it is.
    pub fn title(self) -> &'static str {
        match self {
            Test::StaleWrite => "A client paused for 2 × TTL gets its stale write rejected",
            Test::StaleRelease => {
                "A client whose lease expired cannot release the new holder's lock"
            }
            Test::ChaosAcceptedWriters => {
                "Under chaos (180 s, 8 clients, pauses, partitions, lock-service failover), the \
                 article's check (at most one accepted writer at any moment)"
            }
            Test::ChaosData => {
                "The same run, our data check (stronger: the register keeps every accepted \
                 increment, in the order the resource accepted them)"
            }
        }
    }
}

/// One test's result and the reason for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub test: Test,
    pub finding: Finding,
}

impl Verdict {
    pub fn outcome(&self) -> Outcome {
        self.finding.outcome()
    }
}

/// The seed of the chaos run the three tests use unless told otherwise.
pub const CHAOS_SEED: u64 = 1;

/// Runs the three tests against `backend`, with the resource's fencing as `fencing`, the chaos
/// run generated from `chaos_seed`, and gives the four verdicts (the chaos run's two, the
/// article's check and ours, come from the one run). Deterministic: the same arguments always
/// give the same verdicts.
pub fn run_all(backend: ChaosBackend, fencing: Fencing, chaos_seed: u64) -> [Verdict; 4] {
    let subject = Subject {
        service: backend.spec(),
        fencing,
        release: ReleaseMethod::IfStillMine,
    };
    let chaos = Chaos::verification_test(chaos_seed, fencing).with_backend(backend);
    let [writers, data] = chaos_checks(&chaos.scenario());
    let verdict = |test, finding| Verdict { test, finding };
    [
        verdict(Test::StaleWrite, stale_write(&subject)),
        verdict(Test::StaleRelease, stale_release(&subject)),
        verdict(Test::ChaosAcceptedWriters, writers),
        verdict(Test::ChaosData, data),
    ]
}

/// Runs a chaos scenario once and judges it by the article's check and by our data check.
pub fn chaos_checks(scenario: &Scenario) -> [Finding; 2] {
    let mut sim = match Sim::new(scenario) {
        Ok(sim) => sim,
        Err(error) => return [0, 1].map(|_| Finding::CannotRun(error.to_string())),
    };
    let initial = sim.resource_value();
    sim.run_to_end();
    [judge_accepted_writers(&sim), judge_data(&sim, initial)]
}
