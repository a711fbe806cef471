//! The article's three verification tests, run against a lock service: a client paused for
//! twice its TTL has its stale write rejected; a client whose lease expired cannot release the
//! new holder's lock; and under chaos the data stays right — the register ends at what the
//! accepted increments give applied one after another, and no increment a client was told was
//! applied is missing. Each test returns a [`Verdict`] whose [`Finding`] says why it passed or
//! failed. The native tests assert these verdicts for every lock service and the app only shows
//! them, so there is one implementation of each test.
//!
//! This module builds the tests' scenarios and judges their traces; it must not change how
//! anything runs.

mod data_check;
mod finding;
mod stale_release;
mod stale_write;
mod two_clients;

pub use data_check::{Divergence, LostIncrement, data_check, judge_data};
pub use finding::{Finding, Outcome};
pub use stale_release::stale_release;
pub use stale_write::stale_write;
pub use two_clients::{Subject, TTL_MS, two_clients};

use crate::chaos::{Chaos, ChaosBackend};
use crate::message::ReleaseMethod;
use crate::resource::Fencing;

/// The three tests, in the article's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// "rejects work from a client that paused past expiry".
    StaleWrite,
    /// "does not release a lock held by another client".
    StaleRelease,
    /// The chaos test, judged on the data rather than on the resource's own rule.
    ChaosData,
}

impl Test {
    pub const ALL: [Test; 3] = [Test::StaleWrite, Test::StaleRelease, Test::ChaosData];

    /// What the test claims, as a reader would state it.
    pub fn title(self) -> &'static str {
        match self {
            Test::StaleWrite => "A client paused for 2 × TTL gets its stale write rejected",
            Test::StaleRelease => {
                "A client whose lease expired cannot release the new holder's lock"
            }
            Test::ChaosData => {
                "Under chaos (180 s, 8 clients), the register keeps every accepted increment"
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
/// run generated from `chaos_seed`. Deterministic: the same arguments always give the same
/// verdicts.
pub fn run_all(backend: ChaosBackend, fencing: Fencing, chaos_seed: u64) -> [Verdict; 3] {
    let subject = Subject {
        service: backend.spec(),
        fencing,
        release: ReleaseMethod::IfStillMine,
    };
    let chaos = Chaos::verification_test(chaos_seed, fencing).with_backend(backend);
    Test::ALL.map(|test| Verdict {
        test,
        finding: match test {
            Test::StaleWrite => stale_write(&subject),
            Test::StaleRelease => stale_release(&subject),
            Test::ChaosData => data_check(&chaos.scenario()),
        },
    })
}
