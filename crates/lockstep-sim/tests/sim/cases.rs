//! Which random cases the property tests draw: the one place that decides.
//!
//! Normally every property draws from one fixed seed ([`FIXED_SEED`]), so `cargo test` tests the
//! same cases on every run and every machine: the verdict is a property of the commit, and a
//! fresh clone fails only if the commit is broken. `cargo xtask soak` sets [`SOAK_SEED`] to a new
//! seed each round to look for new failures; a failure it finds is then kept as a file that
//! `cargo test` replays (`found.rs`). In `cargo test`, proptest's own regression files
//! (`tests/proptest-regressions/`) are replayed before the fixed cases.
//!
//! It must not read the clock or the OS's entropy: a seed comes from here or from the soak.

use crate::properties::scenario;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, FileFailurePersistence, RngAlgorithm, RngSeed, TestRunner};

/// The seed every property draws from in `cargo test`. Changing it changes the cases CI runs:
/// `the_fixed_seed_draws_the_recorded_cases` says so.
pub const FIXED_SEED: u64 = 0x10c4_57e9;

/// The environment variable `cargo xtask soak` sets to a fresh seed for a round.
pub const SOAK_SEED: &str = "LOCKSTEP_SOAK_SEED";

/// How many cases a property runs: in `cargo test`, and in one round of `cargo xtask soak`.
#[derive(Clone, Copy, Debug)]
pub struct Cases {
    pub test: u32,
    pub soak: u32,
}

/// The seed of this run: the soak's when it set one, else the fixed one. A soak seed that is not
/// a number is a mistake in whoever set it, said at once rather than ignored.
pub fn seed() -> u64 {
    soak_seed().unwrap_or(FIXED_SEED)
}

/// The soak's seed, when this is a soak round.
pub fn soak_seed() -> Option<u64> {
    let value = std::env::var(SOAK_SEED).ok()?;
    Some(
        value
            .parse()
            .unwrap_or_else(|_| panic!("{SOAK_SEED}={value:?} is not a seed (a u64)")),
    )
}

/// The configuration a property runs with. `source_file` is the property's file (`file!()`): its
/// regression file in `tests/proptest-regressions/` is replayed before any new case (in `cargo
/// test`; not in a soak round).
pub fn config(cases: Cases, source_file: &'static str) -> Config {
    let soaking = soak_seed().is_some();
    let cases = if soaking {
        // The soak counts the cases from these lines (xtask's `soak_jobs.rs`).
        if cases.soak > 0 {
            println!("lockstep-soak-cases {}", cases.soak);
        }
        cases.soak
    } else {
        cases.test
    };
    Config {
        cases,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(seed()),
        source_file: Some(source_file),
        // A soak round looks for new failures: it neither replays the recorded ones (each
        // round would stop at the first) nor records seeds (it keeps what fails as a scenario
        // file in `tests/found/`, which `cargo test` replays).
        failure_persistence: if soaking {
            None
        } else {
            Some(Box::new(FileFailurePersistence::default()))
        },
        ..Config::default()
    }
}

/// A runner for a hand-driven property (one that draws its cases itself).
pub fn runner(cases: Cases, source_file: &'static str) -> TestRunner {
    TestRunner::new(config(cases, source_file))
}

// The proof that the seed is fixed: the cases it draws, recorded.

/// The first cases a runner draws from the random-scenario strategy, as one FNV-1a digest.
fn digest_of_first_cases(runner: &mut TestRunner, count: usize) -> u64 {
    let strategy = scenario();
    (0..count)
        .map(|_| {
            let case = strategy.new_tree(runner).expect("generates").current();
            serde_json::to_string(&case).expect("serialises")
        })
        .flat_map(String::into_bytes)
        .fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

/// The digest tests draw their cases by hand: no count for the soak to add up.
const NONE: Cases = Cases { test: 0, soak: 0 };

#[test]
fn two_runners_draw_the_same_cases() {
    let first = digest_of_first_cases(&mut runner(NONE, file!()), 20);
    let second = digest_of_first_cases(&mut runner(NONE, file!()), 20);
    assert_eq!(first, second);
}

/// The cases CI tests are recorded here by their digest: a run of `cargo test` on any
/// machine draws these, and a change to the seed, a strategy or proptest's generator shows
/// up as a change to this number, made on purpose in a commit. (Skipped in a soak round,
/// which draws other cases by design.)
#[test]
fn the_fixed_seed_draws_the_recorded_cases() {
    if soak_seed().is_some() {
        return;
    }
    assert_eq!(seed(), FIXED_SEED);
    let digest = digest_of_first_cases(&mut runner(NONE, file!()), 20);
    println!("digest of the first 20 random scenarios: {digest:#018x}");
    assert_eq!(
        digest, RECORDED_DIGEST,
        "the fixed cases changed: {digest:#018x}"
    );
}

const RECORDED_DIGEST: u64 = 0xfae2_4da4_1b2c_804f;
