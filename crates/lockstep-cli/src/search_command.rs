//! `lockstep-cli search`: the counterexample search on a scenario (its clients, lock service and
//! resource; the search chooses the faults) or on a search configuration file, printing the
//! shortest run that breaks the invariant — or that none exists within the bounds — and writing
//! the counterexample as a scenario file that `lockstep-cli run` replays.
//!
//! Parsing its arguments reads no files; running does.

use crate::CliError;
use crate::args::{Format, Source, UsageError};
use lockstep_sim::analysis::search::{
    Bounds, Counterexample, FaultBudget, Search, SearchConfig, SearchStatus,
};
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::world::time::Millis;
use lockstep_sim::{Scenario, Sim, scenario::catalogue};
use std::fmt;

/// Whether a scenario's own interventions stay in the search's base.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub enum Interventions {
    /// The search chooses the faults: a scenario's own are left out.
    Drop,
    /// They are the setting (a partition from the start): the search adds its faults to them.
    Keep,
}

#[derive(Debug, PartialEq, Eq)]
pub struct SearchArgs {
    pub source: Source,
    pub invariant: Option<Invariant>,
    pub faults: Option<u8>,
    pub step_ms: Option<u64>,
    pub max_events: Option<u32>,
    pub interventions: Interventions,
    pub out: Option<String>,
    pub format: Format,
}

/// What is wrong with `search`'s own arguments.
#[derive(Debug, PartialEq, Eq)]
pub enum SearchUsage {
    BadInvariant(String),
    BadNumber {
        flag: &'static str,
        value: String,
    },
    /// A scenario says nothing of what to break.
    NoInvariant,
}

impl fmt::Display for SearchUsage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchUsage::BadInvariant(value) => write!(
                f,
                "--invariant: \"{value}\" is not one of {}",
                Invariant::ALL.map(Invariant::id).join(", ")
            ),
            SearchUsage::BadNumber { flag, value } => {
                write!(f, "{flag}: \"{value}\" is not a whole number in range")
            }
            SearchUsage::NoInvariant => f.write_str(
                "search: a scenario needs --invariant <id> (a search configuration names its own)",
            ),
        }
    }
}

pub fn parse(rest: &[String]) -> Result<SearchArgs, UsageError> {
    let mut source = None;
    let mut parsed = SearchArgs {
        source: Source::BuiltIn(String::new()),
        invariant: None,
        faults: None,
        step_ms: None,
        max_events: None,
        interventions: Interventions::Drop,
        out: None,
        format: Format::Text,
    };
    let mut arguments = rest.iter();
    while let Some(argument) = arguments.next() {
        let flag = argument.as_str();
        let mut value = || {
            arguments
                .next()
                .cloned()
                .ok_or(UsageError::MissingValue(static_flag(flag)))
        };
        match flag {
            "--invariant" => {
                let id = value()?;
                parsed.invariant = Some(
                    Invariant::from_id(&id)
                        .ok_or(UsageError::Search(SearchUsage::BadInvariant(id)))?,
                );
            }
            "--faults" => parsed.faults = Some(number("--faults", value()?)?),
            "--step-ms" => parsed.step_ms = Some(number("--step-ms", value()?)?),
            "--max-events" => parsed.max_events = Some(number("--max-events", value()?)?),
            "--out" => parsed.out = Some(value()?),
            "--format" => {
                let format = value()?;
                parsed.format = match format.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    _ => return Err(UsageError::BadFormat(format)),
                };
            }
            "--keep-interventions" => parsed.interventions = Interventions::Keep,
            other if source.is_none() && !other.starts_with("--") => {
                source = Some(Source::from_argument(other));
            }
            other => return Err(UsageError::Unexpected(other.to_owned())),
        }
    }
    parsed.source = source.ok_or(UsageError::MissingScenario("search"))?;
    Ok(parsed)
}

fn static_flag(flag: &str) -> &'static str {
    [
        "--invariant",
        "--faults",
        "--step-ms",
        "--max-events",
        "--out",
        "--format",
    ]
    .into_iter()
    .find(|known| *known == flag)
    .unwrap_or("a flag")
}

fn number<T: std::str::FromStr>(flag: &'static str, value: String) -> Result<T, UsageError> {
    value
        .parse()
        .map_err(|_| UsageError::Search(SearchUsage::BadNumber { flag, value }))
}

pub fn run(args: SearchArgs) -> Result<String, CliError> {
    let config = config(&args)?;
    let invalid = |reason: String| CliError::Scenario {
        source: args.source.describe(),
        reason,
    };
    let mut search = Search::new(&config).map_err(|e| invalid(e.to_string()))?;
    let status = search.run();
    if let (Some(path), SearchStatus::Found(found)) = (&args.out, &status) {
        std::fs::write(path, found.scenario.to_json() + "\n").map_err(|e| CliError::Write {
            path: path.clone(),
            reason: e.to_string(),
        })?;
    }
    Ok(match args.format {
        Format::Json => lockstep_sim::scenario::pretty::to_string(&status) + "\n",
        Format::Text => text(&config, &status, args.out.as_deref()),
    })
}

/// The configuration to search: a configuration file as it is (flags override its invariant,
/// fault count and bounds), or a scenario with the default fault kinds.
fn config(args: &SearchArgs) -> Result<SearchConfig, CliError> {
    let json = read(&args.source)?;
    let invalid = |reason: String| CliError::Scenario {
        source: args.source.describe(),
        reason,
    };
    let mut config = if is_configuration(&json) {
        SearchConfig::parse(&json).map_err(|e| invalid(e.to_string()))?
    } else {
        let mut base = Scenario::parse(&json).map_err(|e| invalid(e.to_string()))?;
        base.expectations.clear();
        if args.interventions == Interventions::Drop {
            base.interventions.clear();
        }
        let invariant = args.invariant.ok_or(CliError::Usage(UsageError::Search(
            SearchUsage::NoInvariant,
        )))?;
        let faults = FaultBudget::defaults_for(&base, args.faults.unwrap_or(1));
        SearchConfig {
            base,
            invariant,
            faults,
            bounds: Bounds::default(),
        }
    };
    if let Some(invariant) = args.invariant {
        config.invariant = invariant;
    }
    if let Some(max) = args.faults {
        config.faults.max = max;
    }
    if let Some(step) = args.step_ms {
        config.bounds.step_ms = Millis(step);
    }
    if let Some(max_events) = args.max_events {
        config.bounds.max_events = max_events;
    }
    Ok(config)
}

/// A configuration is an object with a `base`; anything else is read as a scenario (and its
/// errors are a scenario's).
fn is_configuration(json: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(json)
        .ok()
        .is_some_and(|value| value.get("base").is_some())
}

fn read(source: &Source) -> Result<String, CliError> {
    match source {
        Source::File(path) => {
            let bytes = std::fs::read(path).map_err(|e| CliError::Read {
                path: path.clone(),
                reason: e.to_string(),
            })?;
            lockstep_sim::scenario::strict_json::text(&bytes)
                .map(str::to_owned)
                .map_err(|e| CliError::Scenario {
                    source: path.clone(),
                    reason: lockstep_sim::scenario::error::ScenarioError::from(e).to_string(),
                })
        }
        Source::BuiltIn(id) => catalogue::find(id)
            .map(|built_in| built_in.json.to_owned())
            .ok_or_else(|| CliError::Scenario {
                source: id.clone(),
                reason: "no such built-in scenario (see `lockstep-cli list`) and no such file"
                    .into(),
            }),
    }
}

fn text(config: &SearchConfig, status: &SearchStatus, out: Option<&str>) -> String {
    let mut text = format!(
        "search: \"{}\" on {}\nbounds: at most {} fault{}, struck at steps of {} ms; runs of at most {} events until {} ms\n",
        config.invariant.statement(),
        config.base.title,
        config.faults.max,
        if config.faults.max == 1 { "" } else { "s" },
        config.bounds.step_ms.0,
        config.bounds.max_events,
        config.base.end_ms.0,
    );
    match status {
        SearchStatus::Found(found) => {
            text.push_str(&format!(
                "found: the shortest run that breaks it has {} events ({} states explored)\n",
                found.length, found.states
            ));
            text.push_str(&trace_until_broken(found));
            match out {
                Some(path) => text.push_str(&format!(
                    "wrote {path}: replay it with `lockstep-cli run {path}`\n"
                )),
                None => text.push_str("write it as a scenario file with --out <file.json>\n"),
            }
        }
        SearchStatus::Exhausted { states, depth } => text.push_str(&format!(
            "none within the bounds: {states} states explored, runs up to {depth} events\n"
        )),
        SearchStatus::Running { .. } => {}
    }
    text
}

/// The counterexample's trace up to and including the event that breaks the invariant.
fn trace_until_broken(found: &Counterexample) -> String {
    let Ok(mut sim) = Sim::new(&found.scenario) else {
        return String::new();
    };
    while sim.trace().len() <= found.first_event && sim.step().is_some() {}
    sim.render_text()
}
