//! `lockstep-cli hunt`: the counterexample search over the consensus service's own faults
//! (`lockstep_sim::analysis::search::hunt`), for 3 and 5 replicas and every hunted invariant, as a
//! Markdown table: states explored, how deep, and what was found. A counterexample is written
//! as a scenario file, to become a test.

use crate::args::{seed, whole};
use crate::error::CliError;
use lockstep_sim::analysis::search::MAX_FAULTS;
use lockstep_sim::analysis::search::Search;
use lockstep_sim::analysis::search::SearchStatus;
use lockstep_sim::analysis::search::hunt;
use std::fmt::Write;
use std::time::Instant;

/// What `lockstep-cli hunt` was asked to do.
#[derive(Debug, PartialEq, Eq, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct HuntArgs {
    /// The seed of the base's latency draws.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = seed())]
    pub seed: u64,
    /// The most faults a run may strike.
    #[arg(long, value_name = "K", default_value_t = 2, value_parser = whole(1..=MAX_FAULTS))]
    pub faults: u8,
    /// The longest run explored.
    #[arg(long, value_name = "N", default_value_t = 80, value_parser = whole(1..=u32::MAX))]
    pub max_events: u32,
    /// Where counterexamples go (`<dir>/hunt-<replicas>-<invariant>.json`); none: not written.
    #[arg(long, value_name = "DIR")]
    pub out: Option<String>,
}

/// Runs every search and renders the table.
pub fn run(command: &HuntArgs) -> Result<String, CliError> {
    let mut out = format!(
        "Consensus hunt (seed {}): at most {} of the service's own faults (a replica paused, cut \
         off one way or both, crashed; 900 ms each), every 100 ms, up to {} events\n\n\
         | replicas | invariant | states | depth | seconds | found |\n|---|---|---|---|---|---|\n",
        command.seed, command.faults, command.max_events
    );
    for replicas in [3u8, 5] {
        for invariant in hunt::HUNTED {
            let reach = hunt::Reach {
                max_faults: command.faults,
                max_events: command.max_events,
            };
            let config = hunt::config(replicas, invariant, command.seed, reach).map_err(|e| {
                CliError::Scenario {
                    origin: format!("the hunt's base of {replicas} replicas"),
                    reason: e.to_string(),
                }
            })?;
            let started = Instant::now();
            let mut search = Search::new(&config).map_err(|e| CliError::Scenario {
                origin: format!("the hunt's search on {replicas} replicas"),
                reason: e.to_string(),
            })?;
            let status = search.run();
            let seconds = started.elapsed().as_secs_f64();
            let (states, depth, found) = match &status {
                SearchStatus::Exhausted { states, depth } => (*states, *depth, "none".to_owned()),
                SearchStatus::Found(counterexample) => {
                    let name = format!("hunt-{replicas}-{}.json", invariant.id());
                    if let Some(dir) = &command.out {
                        let path = std::path::Path::new(dir).join(&name);
                        let json = serde_json::to_string_pretty(&counterexample.scenario)
                            .unwrap_or_default();
                        std::fs::write(&path, json + "\n").map_err(|e| CliError::Write {
                            path: path.display().to_string(),
                            reason: e.to_string(),
                        })?;
                    }
                    (
                        counterexample.states,
                        counterexample.length,
                        format!("**yes**: {name}"),
                    )
                }
                SearchStatus::Running { states, depth, .. } => {
                    (*states, *depth, "unfinished".to_owned())
                }
            };
            let _ = writeln!(
                out,
                "| {replicas} | {} | {states} | {depth} | {seconds:.1} | {found} |",
                invariant.id()
            );
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    /// The flags of `hunt <line>`, or the words of their usage error.
    fn parse_line(line: &str) -> Result<super::HuntArgs, String> {
        let arguments: Vec<String> = ["hunt"]
            .into_iter()
            .chain(line.split_whitespace())
            .map(String::from)
            .collect();
        match crate::cli::parse(&arguments) {
            Ok(crate::cli::Parsed::Command(crate::cli::Command::Hunt(args))) => Ok(args),
            Err(error) => Err(error.to_string()),
            Ok(other) => panic!("not a hunt command: {other:?}"),
        }
    }

    #[test]
    fn reads_its_flags_and_refuses_bad_ones() {
        let command = parse_line("--faults 1 --max-events 40").unwrap();
        assert_eq!(
            (command.seed, command.faults, command.max_events),
            (1, 1, 40)
        );
        assert_eq!(
            parse_line("--faults 9"),
            Err("hunt: --faults: \"9\" is not a whole number from 1 to 4".into())
        );
        assert_eq!(parse_line("--out"), Err("hunt: --out needs a value".into()));
    }
}
