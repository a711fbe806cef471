//! `lockstep-cli check-setup <file>`: a lock as its user runs it (`docs/lock-setup.md`, JSON or
//! TOML), checked by many runs and the counterexample search, printed as text or as the
//! report's JSON. Runs are spread over threads in contiguous ranges and put back in seed
//! order, so the report does not depend on the threads. Exits 1 when data can be lost, so a
//! team can keep its lock's design review in CI.

use crate::args::{Format, seed, threads, whole};
use crate::error::CliError;
use crate::setup_text::report_text;
use clap::Args;
use lockstep_sim::analysis::setup_check::{
    CheckReport, Job, LockSetup, Searches, Seeds, SetupCheck, SetupError, Shortest, check_format,
};
use std::num::NonZeroUsize;

/// The most runs one check may ask for.
pub const MAX_CHECK_RUNS: u64 = 100_000;

#[derive(Debug, PartialEq, Eq, Args)]
pub struct CheckSetupArgs {
    /// A lock-setup file: `.toml`, or JSON (any other name).
    #[arg(value_name = "FILE")]
    pub path: String,
    #[arg(long, value_name = "N", default_value_t = 1_000, value_parser = whole(1..=MAX_CHECK_RUNS))]
    pub runs: u64,
    /// The first seed; the runs take the seeds after it.
    #[arg(long = "seed", value_name = "S", default_value_t = 1, value_parser = seed())]
    pub first_seed: u64,
    /// Default: as many as the machine has cores.
    #[arg(long, value_name = "T", value_parser = threads())]
    pub threads: Option<NonZeroUsize>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The same as `--format json`.
    #[arg(long)]
    pub json: bool,
    /// Print the scenario of this seed's run (a file `lockstep-cli run` and the playground
    /// open) instead of checking.
    #[arg(long, value_name = "SEED", value_parser = seed())]
    pub print_run: Option<u64>,
}

/// Reads a setup file: TOML by its name, JSON otherwise.
pub fn read_setup(path: &str, text: &str) -> Result<LockSetup, SetupError> {
    if !path.ends_with(".toml") {
        return LockSetup::parse_json(text);
    }
    let table: toml::Table = toml::from_str(text).map_err(|e| SetupError::Text(e.to_string()))?;
    check_format(
        table
            .get("format")
            .map(|v| v.as_integer().and_then(|n| u64::try_from(n).ok())),
    )?;
    let setup: LockSetup = toml::from_str(text).map_err(|e| SetupError::Text(e.to_string()))?;
    setup.validate()?;
    Ok(setup)
}

pub fn run(args: &CheckSetupArgs) -> Result<String, CliError> {
    let text = std::fs::read_to_string(&args.path).map_err(|e| CliError::Read {
        path: args.path.clone(),
        reason: e.to_string(),
    })?;
    let invalid = |error: SetupError| CliError::Scenario {
        origin: args.path.clone(),
        reason: error.to_string(),
    };
    let setup = read_setup(&args.path, &text).map_err(invalid)?;
    let check = SetupCheck::new(setup).map_err(invalid)?;
    if let Some(seed) = args.print_run {
        let scenario = check.scenario(Job::Setup, seed);
        return Ok(serde_json::to_string_pretty(&scenario).unwrap_or_default() + "\n");
    }
    if args.first_seed.checked_add(args.runs - 1).is_none() {
        return Err(CliError::Usage {
            command: Some("check-setup".to_owned()),
            message: format!(
                "--seed {} with --runs {} goes past the largest seed",
                args.first_seed, args.runs
            ),
        });
    }
    let threads = args
        .threads
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get);
    let seeds = Seeds {
        first: args.first_seed,
        count: args.runs,
    };
    let report = checked(&check, seeds, threads);
    let json = args.json || args.format == Format::Json;
    let output = if json {
        serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
    } else {
        report_text(&args.path, &report)
    };
    if report.verdict.data_can_be_lost() {
        Err(CliError::Broken(output))
    } else {
        Ok(output)
    }
}

/// Every job's runs over `threads` threads, and the searches beside them.
pub fn checked(check: &SetupCheck, seeds: Seeds, threads: usize) -> CheckReport {
    let work: Vec<(Job, u64)> = check
        .jobs()
        .into_iter()
        .flat_map(|job| seeds.iter().map(move |seed| (job, seed)))
        .collect();
    let per_part = work.len().div_ceil(threads.max(1)).max(1);
    let (runs, searches) = std::thread::scope(|scope| {
        let searches = scope.spawn(|| check.searches());
        let handles: Vec<_> = work
            .chunks(per_part)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|&(job, seed)| check.run(job, seed))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let runs: Vec<_> = handles
            .into_iter()
            .flat_map(|handle| handle.join().unwrap_or_default())
            .collect();
        let searches = searches.join().unwrap_or(Searches {
            beliefs: Shortest::NoFaults,
            data: Shortest::NoFaults,
        });
        (runs, searches)
    });
    let per_job = usize::try_from(seeds.count).unwrap_or(usize::MAX).max(1);
    let by_job: Vec<Vec<_>> = runs.chunks(per_job).map(<[_]>::to_vec).collect();
    check.report(seeds, &by_job, searches)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str) -> (String, String) {
        let path = format!(
            "{}/../../docs/lock-setups/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        (path, text)
    }

    #[test]
    fn the_toml_form_reads_as_the_json_form() {
        let (json_path, json) = file("redis-watchdog-unfenced.json");
        let (toml_path, toml) = file("redis-watchdog-unfenced.toml");
        assert_eq!(read_setup(&toml_path, &toml), read_setup(&json_path, &json));
    }

    #[test]
    fn a_toml_error_names_the_field() {
        let wrong = read_setup("x.toml", "format = 1\nttl = 5\n")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(wrong.contains("ttl"), "{wrong}");
        let version = read_setup("x.toml", "format = 3\n").err();
        assert_eq!(version, Some(SetupError::UnsupportedFormat { found: 3 }));
    }

    #[test]
    fn the_report_does_not_depend_on_the_threads() {
        let (path, text) = file("sql-row-long-pause.json");
        let setup = read_setup(&path, &text).expect("a worked setup");
        let check = SetupCheck::new(setup).expect("valid");
        let seeds = Seeds { first: 1, count: 6 };
        assert_eq!(checked(&check, seeds, 1), checked(&check, seeds, 3));
    }
}
