//! `lockstep-cli search`: the counterexample search on a scenario (its clients, lock service and
//! resource; the search chooses the faults) or on a search configuration file, printing the
//! shortest run that breaks the invariant — or that none exists within the bounds — and writing
//! the counterexample as a scenario file that `lockstep-cli run` replays.
//!
//! Parsing its arguments reads no files; running does.

use crate::args::{Format, whole};
use crate::error::CliError;
use crate::source::Source;
use lockstep_sim::Scenario;
use lockstep_sim::Sim;
use lockstep_sim::analysis::search::Bounds;
use lockstep_sim::analysis::search::Counterexample;
use lockstep_sim::analysis::search::FaultBudget;
use lockstep_sim::analysis::search::Search;
use lockstep_sim::analysis::search::SearchConfig;
use lockstep_sim::analysis::search::SearchStatus;
use lockstep_sim::story::export::trace_text;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::world::time::Millis;

/// `lockstep-cli search`'s arguments. Flags override a configuration file's own values.
#[derive(Debug, PartialEq, Eq, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct SearchArgs {
    /// A scenario or search configuration file (`.json`), or a built-in id.
    #[arg(value_name = "SCENARIO", value_parser = Source::from_argument)]
    pub source: Source,
    /// The invariant to break (a configuration names its own).
    #[arg(long, value_name = "ID", value_parser = invariant)]
    pub invariant: Option<Invariant>,
    /// The most faults a run may strike (default 1).
    #[arg(long, value_name = "K", value_parser = whole(0..=u8::MAX))]
    pub faults: Option<u8>,
    /// The virtual milliseconds between the moments a fault may strike.
    #[arg(long, value_name = "N", value_parser = whole(0..=u64::MAX))]
    pub step_ms: Option<u64>,
    /// The longest run explored.
    #[arg(long, value_name = "N", value_parser = whole(0..=u32::MAX))]
    pub max_events: Option<u32>,
    /// Keep a scenario's own interventions (a partition from the start): the search adds its
    /// faults to them instead of choosing them all.
    #[arg(long)]
    pub keep_interventions: bool,
    /// Write the counterexample here, as a scenario file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// A value parser for an invariant's id.
fn invariant(id: &str) -> Result<Invariant, String> {
    Invariant::from_id(id).ok_or_else(|| {
        format!(
            "is not one of {}",
            Invariant::ALL.map(Invariant::id).join(", ")
        )
    })
}

pub fn run(args: SearchArgs) -> Result<String, CliError> {
    let config = config(&args)?;
    let invalid = |reason: String| args.source.invalid(reason);
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
    let invalid = |reason: String| args.source.invalid(reason);
    let mut config = if is_configuration(&json) {
        SearchConfig::parse(&json).map_err(|e| invalid(e.to_string()))?
    } else {
        let mut base = Scenario::parse(&json).map_err(|e| invalid(e.to_string()))?;
        base.expectations.clear();
        if !args.keep_interventions {
            base.interventions.clear();
        }
        let invariant = args.invariant.ok_or_else(|| CliError::Usage {
            command: Some("search".to_owned()),
            message: "search: a scenario needs --invariant <id> (a search configuration names \
                      its own)"
                .to_owned(),
        })?;
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

/// The source's text: strict JSON's UTF-8 check, with the position of a bad byte.
fn read(source: &Source) -> Result<String, CliError> {
    let bytes = source.bytes()?;
    lockstep_sim::scenario::strict_json::text(&bytes)
        .map(str::to_owned)
        .map_err(|e| {
            source.invalid(lockstep_sim::scenario::error::ScenarioError::from(e).to_string())
        })
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
    trace_text(&sim)
}
