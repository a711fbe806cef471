//! `lockstep-cli`: run Lockstep scenarios natively and print their traces.
//!
//! ```text
//! lockstep-cli list
//! lockstep-cli run <file.json | built-in id> [--seed N] [--format text|json]
//! lockstep-cli check <file.json | built-in id>
//! ```
//!
//! `run` exits with status 1 and names the failed expectation when one fails; any usage or input
//! error exits with status 2 and says what is wrong.

mod args;

use args::{Command, Format, Source, UsageError};
use lockstep_sim::outcome::RunOutcome;
use lockstep_sim::{Scenario, Sim, catalogue};
use std::fmt;
use std::process::ExitCode;

#[derive(Debug)]
enum CliError {
    Usage(UsageError),
    Read { path: String, reason: String },
    Scenario { source: String, reason: String },
    Expectations(Vec<String>),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(e) => write!(f, "{e}\n\n{}", args::USAGE),
            CliError::Read { path, reason } => write!(f, "cannot read {path}: {reason}"),
            CliError::Scenario { source, reason } => write!(f, "{source}: {reason}"),
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
        Command::Check { source } => {
            let scenario = load(&source)?;
            Ok(format!("{}: ok ({})\n", source.describe(), scenario.title))
        }
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
            let output = match format {
                Format::Text => format!(
                    "{} (seed {seed})\n{}{}hash {}\n",
                    scenario.title,
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
    let text = match source {
        Source::File(path) => std::fs::read_to_string(path).map_err(|e| CliError::Read {
            path: path.clone(),
            reason: e.to_string(),
        })?,
        Source::BuiltIn(id) => catalogue::find(id)
            .map(|b| b.json.to_owned())
            .ok_or_else(|| CliError::Scenario {
                source: id.clone(),
                reason: "no such built-in scenario (see `lockstep-cli list`) and no such file"
                    .into(),
            })?,
    };
    Scenario::parse(&text).map_err(|e| CliError::Scenario {
        source: source.describe(),
        reason: e.to_string(),
    })
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
