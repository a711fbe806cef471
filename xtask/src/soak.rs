//! `cargo xtask soak [--minutes N]`: looks for new failures for as long as asked, where `cargo
//! xtask test` checks a fixed, recorded set of cases.
//!
//! Round after round until the minutes are spent, every job in [`soak_jobs::JOBS`] runs with a
//! fresh seed (from the OS's hasher keys and the clock: nothing here needs to be replayed but the
//! seed, which the report prints). A failing property case is shrunk and kept by the tests
//! themselves as a scenario file in `crates/lockstep-sim/tests/found/`, which every later `cargo
//! test` replays; this command lists the new files, prints cases per minute, and fails when a
//! round failed, naming the command that runs that round again. A round that has started is
//! finished, so a soak can run past its minutes by one round.

use std::collections::BTreeSet;
use std::hash::{BuildHasher, RandomState};
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

use crate::error::Error;
use crate::process::{human, say};
use crate::soak_jobs::JOBS;
use crate::workspace::Workspace;

const DEFAULT_MINUTES: u64 = 10;

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    let minutes = minutes(args)?;
    for job in JOBS {
        say(format!("soak job `{}`: building what it runs", job.name));
        (job.prepare)(workspace)?;
    }
    let found = workspace.join("crates/lockstep-sim/tests/found");
    let before = json_files(&found)?;
    let budget = Duration::from_secs(minutes * 60);
    say(format!(
        "soaking for {minutes} min: {} job(s), a fresh seed each round",
        JOBS.len()
    ));
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut round = 0u64;
    while started.elapsed() < budget {
        round += 1;
        for job in JOBS {
            let seed = fresh_seed(round);
            let round_start = Instant::now();
            let done = (job.round)(workspace, seed)?;
            tally.cases += done.cases;
            say(format!(
                "round {round}, `{}`, seed {seed}: {} cases in {}{}",
                job.name,
                done.cases,
                human(round_start.elapsed()),
                if done.failure.is_some() {
                    ", FAILED"
                } else {
                    ""
                }
            ));
            if let Some(failure) = done.failure {
                eprintln!("{failure}\n    run this round again: {}", done.rerun);
                tally.failed.push(done.rerun);
            }
        }
    }
    let elapsed = started.elapsed();
    let new: Vec<PathBuf> = json_files(&found)?.difference(&before).cloned().collect();
    report(&tally, round, elapsed, &new);
    if tally.failed.is_empty() {
        Ok(())
    } else {
        Err(Error::Check(format!(
            "{} soak round(s) failed; {}",
            tally.failed.len(),
            if new.is_empty() {
                "no scenario file was kept (a failure outside the run properties): rerun the \
                 rounds above to see it"
                    .to_owned()
            } else {
                "cargo test now replays the files kept: fix the bug they show, then keep them"
                    .to_owned()
            }
        )))
    }
}

/// What the rounds added up to.
#[derive(Default)]
struct Tally {
    cases: u64,
    /// The command that reruns each failed round.
    failed: Vec<String>,
}

fn report(tally: &Tally, rounds: u64, elapsed: Duration, new: &[PathBuf]) {
    let minutes = elapsed.as_secs_f64() / 60.0;
    let per_minute = if minutes > 0.0 {
        tally.cases as f64 / minutes
    } else {
        0.0
    };
    eprintln!();
    say(format!(
        "soaked {} in {rounds} round(s): {} cases, {per_minute:.0} cases per minute",
        human(elapsed),
        tally.cases
    ));
    for job in JOBS {
        eprintln!("    {}: {}", job.name, job.what);
    }
    if new.is_empty() && tally.failed.is_empty() {
        say("found nothing new");
    }
    for path in new {
        say(format!("found: {}", path.display()));
    }
}

/// `--minutes N`, or the default.
fn minutes(args: &[String]) -> Result<u64, Error> {
    match args {
        [] => Ok(DEFAULT_MINUTES),
        [flag, value] if flag == "--minutes" => match value.parse::<u64>() {
            Ok(minutes) if minutes > 0 => Ok(minutes),
            _ => Err(Error::Usage(format!(
                "--minutes takes a whole number of minutes above 0, not `{value}`"
            ))),
        },
        _ => Err(Error::Usage(
            "usage: cargo xtask soak [--minutes N]".to_owned(),
        )),
    }
}

/// A seed no earlier round used: the standard library's randomly keyed hasher over the round
/// and the time. (xtask may use the OS's entropy; the simulation never does.)
fn fresh_seed(round: u64) -> u64 {
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos());
    RandomState::new().hash_one((round, now))
}

/// The `.json` files in `folder` (none if it does not exist yet).
fn json_files(folder: &std::path::Path) -> Result<BTreeSet<PathBuf>, Error> {
    let entries = match std::fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeSet::new()),
        Err(error) => {
            return Err(Error::Io {
                action: format!("listing {}", folder.display()),
                source: error,
            });
        }
    };
    let mut files = BTreeSet::new();
    for entry in entries {
        let path = entry
            .map_err(Error::io(format!("listing {}", folder.display())))?
            .path();
        if path.extension().is_some_and(|ext| ext == "json") {
            files.insert(path);
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn minutes_default_and_parse_and_refuse_nonsense() {
        assert_eq!(minutes(&[]).ok(), Some(DEFAULT_MINUTES));
        assert_eq!(minutes(&args(&["--minutes", "2"])).ok(), Some(2));
        for wrong in [
            &["--minutes", "0"][..],
            &["--minutes", "x"],
            &["--hours", "1"],
        ] {
            assert!(
                matches!(minutes(&args(wrong)), Err(Error::Usage(_))),
                "{wrong:?}"
            );
        }
    }

    #[test]
    fn rounds_get_different_seeds() {
        assert_ne!(fresh_seed(1), fresh_seed(2));
    }
}
