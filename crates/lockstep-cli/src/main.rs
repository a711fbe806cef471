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
//! lockstep-cli check-trace <recorded history.json>
//! lockstep-cli check-setup <lock-setup.json | .toml> [--runs N] [--seed S] [--threads T] [--json]
//! lockstep-cli real <file.json | built-in id> --service postgres|redis [--runs N] [--record file.json]
//! ```
//!
//! `real` plays only in a build with the `real` feature (`--features real`); without it, it
//! says so and exits with status 2.
//!
//! `run` exits with status 1 and names the failed expectation when one fails, `check-trace` when
//! an invariant broke, `check-setup` when data can be lost, `real` when a real run did not match the simulation; any usage or input
//! error exits with status 2 and says what is wrong.

mod against;
mod args;
mod chaos;
mod check_setup;
mod check_trace;
mod cli;
mod error;
mod hunt;
mod matrix;
mod real_command;
#[cfg(feature = "real")]
mod real_play;
mod run_command;
mod search_command;
mod setup_text;
mod source;
mod usage;

use cli::{Command, Parsed};
use error::CliError;
use lockstep_sim::scenario::catalogue;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(output) => {
            print!("{output}");
            ExitCode::SUCCESS
        }
        Err(error @ CliError::Expectations(_)) => {
            eprint!("{error}");
            ExitCode::from(1)
        }
        #[cfg(not(feature = "real"))]
        Err(error @ CliError::BuiltWithoutReal) => {
            // Its own first words, not "lockstep-cli: ": scripts and people look for them.
            eprintln!("{error}");
            ExitCode::from(2)
        }
        Err(CliError::Broken(report)) => {
            print!("{report}");
            ExitCode::from(1)
        }
        Err(error) => {
            // A usage error is followed by the usage of the command it is about.
            let usage = match &error {
                CliError::Usage { command, .. } => {
                    format!("\n\n{}", cli::usage(command.as_deref()))
                }
                _ => String::new(),
            };
            eprintln!("lockstep-cli: {error}{usage}");
            ExitCode::from(2)
        }
    }
}

fn run(arguments: Vec<String>) -> Result<String, CliError> {
    let command = match cli::parse(&arguments)? {
        Parsed::Help(text) => return Ok(text),
        Parsed::Command(command) => command,
    };
    match command {
        Command::List => Ok(list()),
        Command::Check { source } => {
            let scenario = source.load()?;
            Ok(format!("{}: ok ({})\n", source.describe(), scenario.title))
        }
        Command::Run(args) => run_command::run(&args),
        Command::Chaos(args) => chaos::run(&args.command()?).map_err(CliError::Chaos),
        Command::Hunt(args) => hunt::run(&args),
        Command::Matrix(args) => matrix::run(&args).map_err(CliError::Chaos),
        Command::Search(args) => search_command::run(args),
        Command::CheckTrace(args) => check_trace::run(&args),
        Command::CheckSetup(args) => check_setup::run(&args),
        #[cfg(feature = "real")]
        Command::Real(args) => real_play::run_real(&args),
        // A build without the reality check has no servers to play against: it says how to
        // get one.
        #[cfg(not(feature = "real"))]
        Command::Real(_) => Err(CliError::BuiltWithoutReal),
    }
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
