//! `lockstep-cli`: run Lockstep scenarios natively and print their traces.
//!
//! ```text
//! lockstep-cli list
//! lockstep-cli run <file.json | built-in id> [--seed N] [--format text|json]
//! lockstep-cli run <file.json | built-in id> --against <service> [--seed N] [--format text|json]
//! lockstep-cli check <file.json | built-in id>
//! lockstep-cli chaos [--backend ID] [--fencing on|off] [--runs N] [--seed S] [--clients C]
//!                    [--faults LIST] [--duration MS] [--threads T] [--format text|json]
//! lockstep-cli matrix [--runs N] [--consensus-runs N] [--threads T]
//! lockstep-cli hunt [--seed S] [--faults K] [--max-events N] [--out DIR]
//! lockstep-cli search <scenario or search-config.json | built-in id> --invariant <id> [--faults K] [--out file.json]
//! ```
//!
//! `run` exits with status 1 and names the failed expectation when one fails; any usage or input
//! error exits with status 2 and says what is wrong.

mod against;
mod args;
mod chaos;
mod flag_error;
mod hunt;
mod matrix;
mod search_command;

use args::{Command, Format, Source, UsageError};
use lockstep_sim::story::outcome::RunOutcome;
use lockstep_sim::{Scenario, Sim, scenario::catalogue, scenario::sources};
use std::fmt;
use std::process::ExitCode;

#[derive(Debug)]
pub(crate) enum CliError {
    Usage(UsageError),
    Read { path: String, reason: String },
    Write { path: String, reason: String },
    Scenario { source: String, reason: String },
    Expectations(Vec<String>),
    Chaos(lockstep_sim::analysis::chaos::ReportError),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(e) => write!(f, "{e}\n\n{}", args::USAGE),
            CliError::Read { path, reason } => write!(f, "cannot read {path}: {reason}"),
            CliError::Write { path, reason } => write!(f, "cannot write {path}: {reason}"),
            CliError::Scenario { source, reason } => write!(f, "{source}: {reason}"),
            CliError::Chaos(e) => write!(f, "chaos: {e}"),
            CliError::Expectations(failures) => {
                writeln!(f, "{} expectation(s) failed:", failures.len())?;
                failures
                    .iter()
                    .try_for_each(|failure| writeln!(f, "  ✗ {failure}"))
            }
        }
    }
}

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(output) => {
            print!("{output}");
            ExitCode::SUCCESS
        }
        Err(CliError::Expectations(failures)) => {
            eprint!("{}", CliError::Expectations(failures));
            ExitCode::from(1)
        }
        Err(error) => {
            eprintln!("lockstep-cli: {error}");
            ExitCode::from(2)
        }
    }
}

fn run(arguments: Vec<String>) -> Result<String, CliError> {
    match args::parse(&arguments).map_err(CliError::Usage)? {
        Command::List => Ok(list()),
        Command::Chaos(command) => chaos::run(&command).map_err(CliError::Chaos),
        Command::Hunt(command) => hunt::run(&command),
        Command::Matrix(command) => matrix::run(&command).map_err(CliError::Chaos),
        Command::Search(search) => search_command::run(search),
        Command::Check { source } => {
            let scenario = load(&source)?;
            Ok(format!("{}: ok ({})\n", source.describe(), scenario.title))
        }
        Command::Against {
            source,
            service,
            seed,
            format,
        } => against::run(&source, load(&source)?, service, seed, format),
        Command::Run {
            source,
            seed,
            format,
        } => {
            let scenario = load(&source)?;
            let seed = seed.unwrap_or(scenario.seed);
            let mut sim = Sim::with_log(&scenario, seed, &[]).map_err(|e| CliError::Scenario {
                source: source.describe(),
                reason: e.to_string(),
            })?;
            sim.run_to_end();
            let spent = sim.stopped_by_budget();
            let output = match format {
                Format::Text => format!(
                    "{} (seed {seed})\n{}{}{}hash {}\n",
                    scenario.title,
                    source_lines(&scenario),
                    sim.render_text(),
                    RunOutcome::of(sim.trace())
                        .lines(sim.cast())
                        .iter()
                        .map(|line| format!("outcome: {line}\n"))
                        .collect::<String>(),
                    sim.hash()
                ),
                Format::Json => {
                    let export = sim.export(&scenario.id);
                    serde_json::to_string_pretty(&export).unwrap_or_default() + "\n"
                }
            };
            if let Some(spent) = spent {
                // What ran is shown; its expectations are not judged on half a run.
                print!("{output}");
                return Err(CliError::Scenario {
                    source: source.describe(),
                    reason: spent.to_string(),
                });
            }
            let failures: Vec<String> = scenario
                .expectations
                .iter()
                .filter_map(|expectation| expectation.check(&sim).err())
                .collect();
            if failures.is_empty() {
                Ok(output)
            } else {
                print!("{output}");
                Err(CliError::Expectations(failures))
            }
        }
    }
}

/// The scenario's citations, resolved against the bibliography, then its notes (a format 1
/// file's `source` text): one "source:" or "note:" line each.
fn source_lines(scenario: &Scenario) -> String {
    let cited = scenario
        .citations()
        .iter()
        .map(|citation| format!("source: {}\n", sources::cite(citation)))
        .collect::<String>();
    let noted = scenario
        .notes()
        .map(|note| format!("note: {note}\n"))
        .collect::<String>();
    cited + &noted
}

fn list() -> String {
    let width = catalogue::BUILT_IN
        .iter()
        .map(|b| b.id.len())
        .max()
        .unwrap_or(0);
    catalogue::BUILT_IN
        .iter()
        .map(|built_in| match built_in.load() {
            Ok(scenario) => format!("{:<width$}  {}\n", built_in.id, scenario.title),
            Err(e) => format!("{:<width$}  (broken: {e})\n", built_in.id),
        })
        .collect()
}

fn load(source: &Source) -> Result<Scenario, CliError> {
    // Bytes, not a string: a file that is not UTF-8 is a scenario error with its position.
    let bytes = match source {
        Source::File(path) => std::fs::read(path).map_err(|e| CliError::Read {
            path: path.clone(),
            reason: e.to_string(),
        })?,
        Source::BuiltIn(id) => catalogue::find(id)
            .map(|b| b.json.as_bytes().to_vec())
            .ok_or_else(|| CliError::Scenario {
                source: id.clone(),
                reason: "no such built-in scenario (see `lockstep-cli list`) and no such file"
                    .into(),
            })?,
    };
    Scenario::parse_bytes(&bytes).map_err(|e| CliError::Scenario {
        source: source.describe(),
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_run_names_its_sources_resolved() {
        let output = run(vec!["run".to_owned(), "s2-gc-pause-fenced".to_owned()])
            .expect("S2 meets its expectations");
        assert!(output.contains(
            "source: Martin Kleppmann (2016), \u{201c}How to do distributed locking\u{201d}, \
             § Making the lock safe with fencing\n"
        ));
    }

    /// Writes `bytes` to a file of this test's own and runs the CLI's `check` on it.
    fn check_file(name: &str, bytes: &[u8]) -> Result<String, CliError> {
        let path = std::env::temp_dir().join(format!("lockstep-cli-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).expect("a temporary file");
        let outcome = run(vec!["check".to_owned(), path.display().to_string()]);
        let _ = std::fs::remove_file(&path);
        outcome
    }

    #[test]
    fn a_file_that_is_not_utf8_is_a_scenario_error_with_its_position() {
        let mut bytes = catalogue::BUILT_IN[0].json.as_bytes().to_vec();
        bytes.insert(1, 0xff);
        let error = check_file("latin1.json", &bytes).expect_err("not UTF-8");
        assert!(
            matches!(&error, CliError::Scenario { reason, .. }
                if reason.starts_with("line 1, column 2: byte 1 is not UTF-8")),
            "{error}"
        );
    }

    #[test]
    fn a_run_that_reaches_the_budget_says_so_and_is_an_input_error() {
        let json = r#"{"format":1,"id":"x","title":"x","seed":1,"end_ms":3600000,
          "lock_service":{"kind":"sql_row"},"resource":{"kind":"register","fencing":"on"},
          "network":{"latency_ms":[1,2]},
          "clients":[{"name":"client-a","start_ms":0,"ttl_ms":3,"work_ms":3600000,
            "access":{"kind":"read_modify_write"},
            "renewal":{"kind":"every","max_renewals":4294967295}}]}"#;
        let path =
            std::env::temp_dir().join(format!("lockstep-cli-{}-budget.json", std::process::id()));
        std::fs::write(&path, json).expect("a temporary file");
        let outcome = run(vec!["run".to_owned(), path.display().to_string()]);
        let _ = std::fs::remove_file(&path);
        let error = outcome.expect_err("stopped by the budget");
        assert!(
            matches!(&error, CliError::Scenario { reason, .. }
                if reason.contains("stopped at") && reason.contains("budget")),
            "{error}"
        );
    }

    #[test]
    fn a_seed_above_the_largest_is_named_with_the_range() {
        let error = run([
            "run",
            "s2-gc-pause-fenced",
            "--seed",
            "18446744073709551616",
        ]
        .map(String::from)
        .to_vec())
        .expect_err("too large");
        assert!(
            error
                .to_string()
                .contains("is not a whole number from 0 to 18446744073709551615"),
            "{error}"
        );
    }
}

#[cfg(test)]
mod outcome_tests {
    use super::run;

    /// The text output ends with how the run ended at the resource, computed from the trace.
    #[test]
    fn the_text_output_says_how_the_run_ended() {
        let output = run(vec!["run".into(), "s2-gc-pause-fenced".into()]).expect("runs");
        assert!(
            output.contains(
                "\noutcome: At 2058 ms client-a's write with token 33 was refused: 33 < 34, the highest token accepted.\nhash "
            ),
            "{output}"
        );
    }
}
