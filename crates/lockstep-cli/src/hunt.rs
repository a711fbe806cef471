//! `lockstep-cli hunt`: the counterexample search over the consensus service's own faults
//! (`lockstep_sim::analysis::search::hunt`), for 3 and 5 replicas and every hunted invariant, as a
//! Markdown table: states explored, how deep, and what was found. A counterexample is written
//! as a scenario file, to become a test.

use crate::flag_error::FlagError;
use lockstep_sim::analysis::search::{Search, SearchStatus, hunt};
use std::fmt::Write;
use std::time::Instant;

/// What `lockstep-cli hunt` was asked to do.
#[derive(Debug, PartialEq, Eq)]
pub struct HuntCommand {
    /// The seed of the base's latency draws.
    pub seed: u64,
    pub faults: u8,
    pub max_events: u32,
    /// Where counterexamples go (`<dir>/hunt-<replicas>-<invariant>.json`); none: not written.
    pub out: Option<String>,
}

/// Reads `--seed S` (default 1), `--faults K` (1–4, default 2), `--max-events N` (default 80),
/// `--out DIR`.
pub fn parse(rest: &[String]) -> Result<HuntCommand, FlagError> {
    let mut command = HuntCommand {
        seed: 1,
        faults: 2,
        max_events: 80,
        out: None,
    };
    let mut arguments = rest.iter();
    while let Some(argument) = arguments.next() {
        let flag = argument.as_str();
        let value = arguments.next();
        let text = match flag {
            "--seed" | "--faults" | "--max-events" | "--out" => {
                value.ok_or_else(|| FlagError::MissingValue(flag.to_owned()))?
            }
            other => return Err(FlagError::Unexpected(other.to_owned())),
        };
        let bad = || FlagError::BadValue {
            flag: flag.to_owned(),
            value: text.clone(),
            expected: "a whole number in range (seed any, faults 1 to 4, events 1 or more)",
        };
        match flag {
            "--seed" => command.seed = text.parse().map_err(|_| bad())?,
            "--faults" => {
                command.faults = text
                    .parse()
                    .ok()
                    .filter(|k| (1..=lockstep_sim::analysis::search::MAX_FAULTS).contains(k))
                    .ok_or_else(bad)?;
            }
            "--max-events" => {
                command.max_events = text.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?;
            }
            _ => command.out = Some(text.clone()),
        }
    }
    Ok(command)
}

/// Runs every search and renders the table.
pub fn run(command: &HuntCommand) -> Result<String, crate::CliError> {
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
                crate::CliError::Scenario {
                    source: format!("the hunt's base of {replicas} replicas"),
                    reason: e.to_string(),
                }
            })?;
            let started = Instant::now();
            let mut search = Search::new(&config).map_err(|e| crate::CliError::Scenario {
                source: format!("the hunt's search on {replicas} replicas"),
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
                        std::fs::write(&path, json + "\n").map_err(|e| crate::CliError::Write {
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
    use super::*;
    use crate::flag_error::args;

    #[test]
    fn reads_its_flags_and_refuses_bad_ones() {
        let command = parse(&args(&["--faults", "1", "--max-events", "40"])).unwrap();
        assert_eq!((command.faults, command.max_events), (1, 40));
        assert!(matches!(
            parse(&args(&["--faults", "9"])),
            Err(FlagError::BadValue { flag, .. }) if flag == "--faults"
        ));
        assert_eq!(
            parse(&args(&["--out"])),
            Err(FlagError::MissingValue("--out".into()))
        );
    }
}
