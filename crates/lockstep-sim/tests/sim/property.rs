//! A property over whole runs: a named check that every scenario a strategy draws must pass.
//!
//! [`Property::run`] draws the cases `cases.rs` decides (fixed in `cargo test`, fresh in a soak
//! round), lets proptest shrink a failure, and fails with the smallest failing scenario as a file
//! `lockstep-cli run` reads; in a soak round it also keeps that file in `tests/found/`
//! (`found.rs`), which every later `cargo test` replays against the same check. This module must
//! not choose seeds (that is `cases.rs`) and must not skip a failure.

use crate::cases::{self, Cases};
use crate::found;
use crate::{fenced_article_runs, properties, raft_liveness};
use lockstep_sim::Scenario;
use proptest::strategy::Strategy;
use proptest::test_runner::{TestCaseError, TestError};

pub struct Property {
    /// Its name, at the start of a found file's id: lowercase letters, digits and '-'.
    pub id: &'static str,
    /// The file that defines it (`file!()`): its proptest regression file is replayed first.
    pub source_file: &'static str,
    pub cases: Cases,
    pub check: fn(&Scenario) -> Result<(), TestCaseError>,
}

/// Every property over runs: a found file is replayed against the one its id names.
pub const ALL: [&Property; 4] = [
    &properties::RANDOM_RUNS,
    &properties::CONSENSUS,
    &raft_liveness::LEADER_AFTER_HEAL,
    &fenced_article_runs::FENCED_ARTICLE_RUNS,
];

impl Property {
    /// Whether a found file's id (`<property>-<digest>`) names this property.
    pub fn is_named_by(&self, found_id: &str) -> bool {
        found_id
            .strip_prefix(self.id)
            .and_then(|rest| rest.strip_prefix('-'))
            .is_some_and(|digest| {
                !digest.is_empty() && digest.chars().all(|c| c.is_ascii_hexdigit())
            })
    }

    /// Checks every case `strategy` draws; panics with the smallest failing scenario.
    pub fn run(&self, strategy: impl Strategy<Value = Scenario>) {
        let mut runner = cases::runner(self.cases, self.source_file);
        let (why, scenario) = match runner.run(&strategy, |scenario| (self.check)(&scenario)) {
            Ok(()) => return,
            Err(TestError::Abort(why)) => panic!("property `{}` gave up: {why}", self.id),
            Err(TestError::Fail(why, scenario)) => (why, scenario),
        };
        let seed = cases::seed();
        let kept = match cases::soak_seed() {
            Some(seed) => match found::keep(self, &scenario, why.message(), seed) {
                Ok(path) => format!("kept as {}", path.display()),
                Err(error) => format!("could not be kept: {error}"),
            },
            None => format!(
                "drawn with seed {seed}, or replayed from tests/proptest-regressions/; run with \
                 {}={seed} to keep it in tests/found/",
                cases::SOAK_SEED
            ),
        };
        panic!(
            "property `{}` failed: {why}\n\nthe smallest failing scenario ({kept}):\n{}",
            self.id,
            scenario.to_json()
        );
    }
}
