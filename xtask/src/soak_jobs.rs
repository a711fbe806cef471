//! What `cargo xtask soak` runs: a list of soak jobs, each one kind of search for new failures
//! that runs a round with a fresh seed and says how many cases it tried and what it found.
//!
//! A job must be reproducible from its seed alone (the report prints it), must keep what it
//! finds where `cargo test` replays it, and must not run in `cargo xtask test`: CI runs the fixed
//! cases only. To add a job, write a `fn(&Workspace, u64) -> Result<Round, Error>` and add it
//! to [`JOBS`]; the loop, the timing and the report are the soak's. (The counterexample search
//! over the consensus service's faults is a test of the `sim` binary, so the properties job
//! runs it: two faults and the round's seed in a soak, one fault and the fixed seed in CI.)

use std::process::Command;

use crate::error::Error;
use crate::process;
use crate::workspace::Workspace;

/// One kind of soak.
pub struct Job {
    pub name: &'static str,
    /// What a round of it does, in a few words, for the report.
    pub what: &'static str,
    /// Builds what the rounds run, before the clock starts.
    pub prepare: fn(&Workspace) -> Result<(), Error>,
    /// Runs one round with `seed`.
    pub round: fn(&Workspace, u64) -> Result<Round, Error>,
}

/// What one round of a job did.
pub struct Round {
    /// How many cases it tried.
    pub cases: u64,
    /// `None` when every case passed; else what failed, in a few lines.
    pub failure: Option<String>,
    /// The command that runs this round again.
    pub rerun: String,
}

/// Every soak job, run in this order in every round.
pub const JOBS: &[Job] = &[Job {
    name: "properties",
    what: "every property test of lockstep-sim (random runs, consensus exclusion, Raft \
           liveness, 1,000 fenced article runs, scenario files mangled and at their edges) over \
           fresh cases, and the two-fault hunt over the consensus service's own faults, release \
           build",
    prepare: build_properties,
    round: properties_round,
}];

/// The environment variable the property tests take their seed from (`tests/sim/cases.rs`).
const SOAK_SEED: &str = "LOCKSTEP_SOAK_SEED";
/// The line each property prints in a soak round: `lockstep-soak-cases <n>`.
const CASES_LINE: &str = "lockstep-soak-cases ";

/// The simulation's test binary in the bench profile: release's settings, at full speed, with
/// the test harness.
fn properties_test(workspace: &Workspace) -> Command {
    let mut command = workspace.cargo();
    command.args([
        "test",
        "--profile",
        "bench",
        "-p",
        "lockstep-sim",
        "--test",
        "sim",
    ]);
    command
}

fn build_properties(workspace: &Workspace) -> Result<(), Error> {
    process::run(properties_test(workspace).arg("--no-run"))
}

/// Runs the whole `sim` test binary with the round's seed: the property tests draw fresh
/// cases (and write what fails to `tests/found/`), the rest run what they always do, which
/// costs little and needs no list of properties here to keep in step.
fn properties_round(workspace: &Workspace, seed: u64) -> Result<Round, Error> {
    let mut command = properties_test(workspace);
    command
        .env(SOAK_SEED, seed.to_string())
        // The found cases are `cargo test`'s to replay: a file kept in one round would fail
        // every later one.
        .args([
            "--quiet",
            "--",
            "--nocapture",
            "--skip",
            "found::every_found_case",
        ]);
    let shown = process::describe(&command);
    let output = command.output().map_err(|source| Error::Spawn {
        command: shown,
        source,
    })?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    Ok(Round {
        cases: cases_in(&stdout),
        failure: (!output.status.success()).then(|| failures_in(&stdout, &stderr)),
        rerun: format!("{SOAK_SEED}={seed} cargo test --profile bench -p lockstep-sim --test sim"),
    })
}

/// The cases the property tests said they drew. A line may begin with libtest's progress dots
/// (`--quiet` prints one per test as it ends, on the same line).
fn cases_in(stdout: &str) -> u64 {
    stdout
        .lines()
        .filter_map(|line| line.split_once(CASES_LINE))
        .filter_map(|(_, n)| n.trim().parse::<u64>().ok())
        .sum()
}

/// The names of the failed tests and the first line of each panic, or the end of stderr when
/// the binary did not get as far as testing.
fn failures_in(stdout: &str, stderr: &str) -> String {
    let lines: Vec<&str> = stdout
        .lines()
        .chain(stderr.lines())
        .filter(|line| {
            line.ends_with("FAILED")
                || line.contains("panicked at")
                || line.starts_with("property `")
        })
        .collect();
    if lines.is_empty() {
        let tail: Vec<&str> = stderr.lines().rev().take(20).collect();
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    } else {
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_are_summed_from_the_properties_lines() {
        let stdout =
            "running 98 tests\n....lockstep-soak-cases 512\n.lockstep-soak-cases 6\nnoise 3\n";
        assert_eq!(cases_in(stdout), 518);
    }

    #[test]
    fn a_failure_names_the_test_and_the_property() {
        let stdout = "test properties::random_runs ... FAILED\nok line\n";
        let stderr = "thread 'x' panicked at tests/sim/property.rs:60:9:\n\
                      property `random-runs` failed: boom\nmore\n";
        assert_eq!(
            failures_in(stdout, stderr),
            "test properties::random_runs ... FAILED\n\
             thread 'x' panicked at tests/sim/property.rs:60:9:\n\
             property `random-runs` failed: boom"
        );
    }
}
