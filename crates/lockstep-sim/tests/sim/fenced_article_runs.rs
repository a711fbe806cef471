//! The article's chaos test with fencing on (SQL row, 8 clients, 180 s of pauses, partitions
//! and lock-service failover), run by run: exclusion at the lock service holds, tokens increase, no token has
//! two writers, and the resource never accepts a token below one it accepted. The stale writes
//! fencing does let in are therefore all in the gap before the new holder's first write (S3):
//! `chaos::tests` counts them, this checks where they are.
//!
//! `cargo test` runs a few of these; a `cargo xtask soak` round runs 1,000 fresh ones (this was
//! the 1,000-run test that CI never ran).

use crate::cases::Cases;
use crate::property::Property;
use crate::support::accepted_tokens_in_order;
use lockstep_sim::analysis::chaos::ChaosSettings;
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::{Scenario, Sim};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

pub const FENCED_ARTICLE_RUNS: Property = Property {
    id: "fenced-article-runs",
    source_file: file!(),
    cases: Cases {
        test: 6,
        soak: 1_000,
    },
    check: fenced_run_keeps_exclusion_and_its_tokens_in_order,
};

#[test]
fn fenced_article_runs_keep_exclusion_and_accept_tokens_in_order() {
    FENCED_ARTICLE_RUNS.run(
        any::<u64>().prop_map(|seed| ChaosSettings::verification_test(Fencing::On).scenario(seed)),
    );
}

fn fenced_run_keeps_exclusion_and_its_tokens_in_order(
    scenario: &Scenario,
) -> Result<(), TestCaseError> {
    let mut sim = Sim::new(scenario).expect("the article's scenarios are valid");
    sim.run_to_end();
    for event in sim.trace() {
        for invariant in [
            Invariant::OneLease,
            Invariant::TokensIncrease,
            Invariant::OneWriterPerToken,
        ] {
            prop_assert!(
                !event.violated.contains(invariant),
                "{} broken at event {}",
                invariant,
                event.id
            );
        }
    }
    accepted_tokens_in_order(&sim).map_err(TestCaseError::fail)
}
