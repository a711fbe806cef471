//! Command-line parsing for `lockstep-cli`: turns the argument list into a [`Command`] or a
//! [`UsageError`] that says which argument is wrong. It reads no files.

use lockstep_sim::analysis::chaos::ChaosBackend;
use std::fmt;
use std::path::Path;

pub const USAGE: &str = "usage:
  lockstep-cli list
  lockstep-cli run <file.json | built-in id> [--seed N] [--format text|json]
  lockstep-cli run <file.json | built-in id> --against <service> [--seed N] [--format text|json]
  lockstep-cli check <file.json | built-in id>
  lockstep-cli chaos [--backend sql-row|cache|replicated-cache|data-grid|redlock|consensus]
                     [--fencing on|off|check-and-set|sequencer] [--runs N] [--seed S]
                     [--clients C] [--faults none|pauses,partitions,clock-jumps,crashes]
                     [--duration MS] [--threads T] [--format text|json] [--print-scenario SEED]
  lockstep-cli matrix [--runs N] [--consensus-runs N] [--threads T]
  lockstep-cli hunt [--seed S] [--faults K] [--max-events N] [--out DIR]
  lockstep-cli search <scenario or search-config.json | built-in id> --invariant <id> [--faults K]
      [--step-ms N] [--max-events N] [--keep-interventions] [--out file.json] [--format text|json]";

#[derive(Debug, PartialEq, Eq)]
pub enum Source {
    File(String),
    BuiltIn(String),
}

impl Source {
    pub fn from_argument(argument: &str) -> Source {
        if argument.ends_with(".json") || Path::new(argument).exists() {
            Source::File(argument.to_owned())
        } else {
            Source::BuiltIn(argument.to_owned())
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Source::File(path) => path.clone(),
            Source::BuiltIn(id) => format!("built-in scenario {id}"),
        }
    }
}

#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub enum Format {
    Text,
    Json,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    List,
    Check {
        source: Source,
    },
    Run {
        source: Source,
        seed: Option<u64>,
        format: Format,
    },
    Chaos(crate::chaos::ChaosCommand),
    /// The chaos test for every lock service × fault mix × fencing on/off.
    Matrix(crate::matrix::MatrixCommand),
    /// The counterexample search over the consensus service's own faults.
    Hunt(crate::hunt::HuntCommand),
    Search(crate::search_command::SearchArgs),
    /// `run … --against <service>`: the scenario and its twin on another lock service.
    Against {
        source: Source,
        service: ChaosBackend,
        seed: Option<u64>,
        format: Format,
    },
}

#[derive(Debug, PartialEq, Eq)]
pub enum UsageError {
    NoCommand,
    UnknownCommand(String),
    MissingScenario(&'static str),
    MissingValue(&'static str),
    BadSeed(String),
    BadFormat(String),
    Unexpected(String),
    Chaos(crate::chaos::ChaosUsageError),
    Matrix(crate::flag_error::FlagError),
    Hunt(crate::flag_error::FlagError),
    Search(crate::search_command::SearchUsage),
    BadService(String),
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsageError::NoCommand => write!(f, "no command given"),
            UsageError::UnknownCommand(c) => write!(f, "unknown command \"{c}\""),
            UsageError::MissingScenario(c) => {
                write!(f, "`{c}` needs a scenario file or built-in id")
            }
            UsageError::MissingValue(flag) => write!(f, "{flag} needs a value"),
            UsageError::BadSeed(s) => write!(
                f,
                "--seed: \"{s}\" is not a whole number from 0 to 18446744073709551615"
            ),
            UsageError::BadFormat(s) => write!(f, "--format: \"{s}\" is not one of text, json"),
            UsageError::Unexpected(a) => write!(f, "unexpected argument \"{a}\""),
            UsageError::Chaos(e) => write!(f, "chaos: {e}"),
            UsageError::Matrix(e) => write!(f, "matrix: {e}"),
            UsageError::Hunt(e) => write!(f, "hunt: {e}"),
            UsageError::Search(e) => write!(f, "{e}"),
            UsageError::BadService(s) => write!(
                f,
                "--against: \"{s}\" is not a lock service; the services are {}",
                ChaosBackend::ALL.map(ChaosBackend::id).join(", ")
            ),
        }
    }
}

pub fn parse(arguments: &[String]) -> Result<Command, UsageError> {
    let (command, rest) = arguments.split_first().ok_or(UsageError::NoCommand)?;
    match command.as_str() {
        "list" => match rest.first() {
            None => Ok(Command::List),
            Some(extra) => Err(UsageError::Unexpected(extra.clone())),
        },
        "check" => match rest {
            [source] => Ok(Command::Check {
                source: Source::from_argument(source),
            }),
            [] => Err(UsageError::MissingScenario("check")),
            [_, extra, ..] => Err(UsageError::Unexpected(extra.clone())),
        },
        "run" => parse_run(rest),
        "chaos" => crate::chaos::parse(rest)
            .map(Command::Chaos)
            .map_err(UsageError::Chaos),
        "hunt" => crate::hunt::parse(rest)
            .map(Command::Hunt)
            .map_err(UsageError::Hunt),
        "matrix" => crate::matrix::parse(rest)
            .map(Command::Matrix)
            .map_err(UsageError::Matrix),
        "search" => crate::search_command::parse(rest).map(Command::Search),
        other => Err(UsageError::UnknownCommand(other.to_owned())),
    }
}

fn parse_run(rest: &[String]) -> Result<Command, UsageError> {
    let mut source = None;
    let mut seed = None;
    let mut format = Format::Text;
    let mut against = None;
    let mut arguments = rest.iter();
    while let Some(argument) = arguments.next() {
        match argument.as_str() {
            "--seed" => {
                let value = arguments.next().ok_or(UsageError::MissingValue("--seed"))?;
                seed = Some(
                    value
                        .parse()
                        .map_err(|_| UsageError::BadSeed(value.clone()))?,
                );
            }
            "--format" => {
                let value = arguments
                    .next()
                    .ok_or(UsageError::MissingValue("--format"))?;
                format = match value.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    _ => return Err(UsageError::BadFormat(value.clone())),
                };
            }
            "--against" => {
                let value = arguments
                    .next()
                    .ok_or(UsageError::MissingValue("--against"))?;
                against = Some(
                    ChaosBackend::from_id(value)
                        .ok_or_else(|| UsageError::BadService(value.clone()))?,
                );
            }
            other if source.is_none() && !other.starts_with("--") => {
                source = Some(Source::from_argument(other))
            }
            other => return Err(UsageError::Unexpected(other.to_owned())),
        }
    }
    let source = source.ok_or(UsageError::MissingScenario("run"))?;
    Ok(match against {
        Some(service) => Command::Against {
            source,
            service,
            seed,
            format,
        },
        None => Command::Run {
            source,
            seed,
            format,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_line(line: &str) -> Result<Command, UsageError> {
        parse(
            &line
                .split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn run_takes_a_source_a_seed_and_a_format_in_any_order() {
        assert_eq!(
            parse_line("run --format json s2-gc-pause-fenced --seed 7"),
            Ok(Command::Run {
                source: Source::BuiltIn("s2-gc-pause-fenced".into()),
                seed: Some(7),
                format: Format::Json
            })
        );
        assert_eq!(
            parse_line("run x.json"),
            Ok(Command::Run {
                source: Source::File("x.json".into()),
                seed: None,
                format: Format::Text
            })
        );
    }

    #[test]
    fn run_against_takes_a_service_id_and_names_the_valid_ones_when_bad() {
        assert_eq!(
            parse_line("run s10-redlock-clock-jump --against consensus --seed 3"),
            Ok(Command::Against {
                source: Source::BuiltIn("s10-redlock-clock-jump".into()),
                service: ChaosBackend::Consensus,
                seed: Some(3),
                format: Format::Text
            })
        );
        let error = parse_line("run a --against zookeeper").unwrap_err();
        assert_eq!(error, UsageError::BadService("zookeeper".into()));
        assert_eq!(
            error.to_string(),
            "--against: \"zookeeper\" is not a lock service; the services are sql-row, cache, \
             replicated-cache, data-grid, redlock, consensus"
        );
        assert_eq!(
            parse_line("run a --against"),
            Err(UsageError::MissingValue("--against"))
        );
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        assert_eq!(parse_line(""), Err(UsageError::NoCommand));
        assert_eq!(
            parse_line("fly"),
            Err(UsageError::UnknownCommand("fly".into()))
        );
        assert_eq!(parse_line("run"), Err(UsageError::MissingScenario("run")));
        assert_eq!(
            parse_line("run a --seed"),
            Err(UsageError::MissingValue("--seed"))
        );
        assert_eq!(
            parse_line("run a --seed -1"),
            Err(UsageError::BadSeed("-1".into()))
        );
        assert_eq!(
            parse_line("run a --format xml"),
            Err(UsageError::BadFormat("xml".into()))
        );
        assert_eq!(
            parse_line("run a b"),
            Err(UsageError::Unexpected("b".into()))
        );
        assert_eq!(
            parse_line("list now"),
            Err(UsageError::Unexpected("now".into()))
        );
    }
}
