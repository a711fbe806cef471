//! The command line as clap declares it: the commands and, through each command's own
//! arguments, their flags. It turns the argument list into a [`Command`], or into a usage error
//! in the words of [`crate::usage`], followed by the usage clap generates. It reads no files.

use crate::chaos::ChaosArgs;
use crate::check_setup::CheckSetupArgs;
use crate::check_trace::CheckTraceArgs;
use crate::error::CliError;
use crate::hunt::HuntArgs;
use crate::matrix::MatrixArgs;
use crate::real_command::RealArgs;
use crate::run_command::RunArgs;
use crate::search_command::SearchArgs;
use crate::source::Source;
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};

/// Run Lockstep scenarios natively and print their traces.
#[derive(Debug, Parser)]
#[command(
    name = "lockstep-cli",
    subcommand_required = true,
    disable_help_subcommand = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, PartialEq, Eq, Subcommand)]
pub enum Command {
    /// The built-in scenarios: id and title.
    List,
    /// Parse and validate a scenario without running it.
    Check {
        /// A scenario file (`.json`) or a built-in id.
        #[arg(value_name = "SCENARIO", value_parser = Source::from_argument)]
        source: Source,
    },
    /// Run a scenario, print its trace and check its expectations.
    Run(RunArgs),
    /// Many seeds of a chaos run, as a table or the chaos report's JSON.
    Chaos(ChaosArgs),
    /// The chaos test for every lock service × fault mix × fencing on/off.
    Matrix(MatrixArgs),
    /// The counterexample search over the consensus service's own faults.
    Hunt(HuntArgs),
    /// The shortest run of a scenario that breaks an invariant.
    Search(SearchArgs),
    /// A recorded history (from a real system) judged by the simulation's invariants.
    CheckTrace(CheckTraceArgs),
    /// A lock as you run it (a lock-setup file), checked: how it fails and what fixes it.
    CheckSetup(CheckSetupArgs),
    /// A scenario played against real servers on loopback, beside its simulation.
    Real(RealArgs),
}

/// What the arguments ask for: a command, or clap's help text.
#[derive(Debug, PartialEq, Eq)]
pub enum Parsed {
    Command(Command),
    Help(String),
}

pub fn parse(arguments: &[String]) -> Result<Parsed, CliError> {
    let named = arguments.first().map(String::as_str);
    let line = std::iter::once("lockstep-cli").chain(arguments.iter().map(String::as_str));
    match Cli::try_parse_from(line) {
        Ok(cli) => Ok(Parsed::Command(cli.command)),
        Err(error) if matches!(error.kind(), ErrorKind::DisplayHelp) => {
            Ok(Parsed::Help(error.render().to_string()))
        }
        Err(error) => Err(CliError::Usage {
            command: named.filter(|name| is_command(name)).map(str::to_owned),
            message: crate::usage::words(&error, named),
        }),
    }
}

fn is_command(name: &str) -> bool {
    Cli::command().find_subcommand(name).is_some()
}

/// The usage lines clap generates, of `command` or, if it names none, of every command.
pub fn usage(command: Option<&str>) -> String {
    let mut cli = Cli::command();
    cli.build();
    let lines: String = cli
        .get_subcommands_mut()
        .filter(|sub| command.is_none_or(|name| sub.get_name() == name))
        .map(|sub| {
            let usage = sub.render_usage().to_string();
            format!("  {}\n", usage.trim_start_matches("Usage: "))
        })
        .collect();
    format!("usage:\n{lines}(`lockstep-cli <command> --help` says what each flag takes)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::Format;
    use lockstep_sim::analysis::chaos::ChaosBackend;

    fn parse_line(line: &str) -> Result<Parsed, String> {
        let arguments: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse(&arguments).map_err(|error| error.to_string())
    }

    fn run_args(line: &str) -> RunArgs {
        match parse_line(line) {
            Ok(Parsed::Command(Command::Run(args))) => args,
            other => panic!("not a run: {other:?}"),
        }
    }

    #[test]
    fn run_takes_a_source_a_seed_and_a_format_in_any_order() {
        assert_eq!(
            run_args("run --format json s2-gc-pause-fenced --seed 7"),
            RunArgs {
                source: Source::BuiltIn("s2-gc-pause-fenced".into()),
                seed: Some(7),
                format: Format::Json,
                against: None,
            }
        );
        assert_eq!(
            run_args("run x.json"),
            RunArgs {
                source: Source::File("x.json".into()),
                seed: None,
                format: Format::Text,
                against: None,
            }
        );
    }

    #[test]
    fn run_against_takes_a_service_id_and_names_the_valid_ones_when_bad() {
        assert_eq!(
            run_args("run s10-redlock-clock-jump --against consensus --seed 3"),
            RunArgs {
                source: Source::BuiltIn("s10-redlock-clock-jump".into()),
                seed: Some(3),
                format: Format::Text,
                against: Some(ChaosBackend::Consensus),
            }
        );
        assert_eq!(
            parse_line("run a --against zookeeper"),
            Err(
                "--against: \"zookeeper\" is not a lock service; the services are sql-row, \
                 cache, replicated-cache, data-grid, redlock, consensus"
                    .into()
            )
        );
        assert_eq!(
            parse_line("run a --against"),
            Err("--against needs a value".into())
        );
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        for (line, words) in [
            ("", "no command given"),
            ("fly", "unknown command \"fly\""),
            ("run", "`run` needs a scenario file or built-in id"),
            ("search", "`search` needs a scenario file or built-in id"),
            ("run a --seed", "--seed needs a value"),
            (
                "run a --seed -1",
                "--seed: \"-1\" is not a whole number from 0 to 18446744073709551615",
            ),
            (
                "run a --format xml",
                "--format: \"xml\" is not one of text, json",
            ),
            ("run a b", "unexpected argument \"b\""),
            ("list now", "unexpected argument \"now\""),
            ("run a --seed 1 --seed 2", "--seed is given twice"),
        ] {
            assert_eq!(parse_line(line), Err(words.into()), "{line}");
        }
    }

    #[test]
    fn a_usage_error_names_its_command_whose_usage_follows() {
        let arguments = ["run".to_owned()];
        let Err(CliError::Usage { command, .. }) = parse(&arguments) else {
            panic!("a usage error");
        };
        assert_eq!(command.as_deref(), Some("run"));
        assert_eq!(
            usage(command.as_deref()),
            "usage:\n  lockstep-cli run [OPTIONS] <SCENARIO>\n\
             (`lockstep-cli <command> --help` says what each flag takes)"
        );
        assert!(usage(None).contains("\n  lockstep-cli chaos [OPTIONS]\n"));
    }

    #[test]
    fn help_is_clap_s_and_not_an_error() {
        let Ok(Parsed::Help(text)) = parse_line("chaos --help") else {
            panic!("help");
        };
        assert!(text.contains("--print-scenario <SEED>"), "{text}");
    }
}
