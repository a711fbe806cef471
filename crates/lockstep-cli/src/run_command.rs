//! `lockstep-cli run`: one scenario, its trace as text or JSON, and its expectations checked;
//! with `--against`, the scenario beside its twin on another lock service ([`crate::against`]).

use crate::args::{Format, seed};
use crate::error::CliError;
use crate::source::Source;
use lockstep_sim::Scenario;
use lockstep_sim::Sim;
use lockstep_sim::analysis::chaos::ChaosBackend;
use lockstep_sim::analysis::expectation_check;
use lockstep_sim::scenario::sources;
use lockstep_sim::story::export::{TraceExport, trace_text};
use lockstep_sim::story::outcome::RunOutcome;

#[derive(Debug, PartialEq, Eq, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct RunArgs {
    /// A scenario file (`.json`) or a built-in id.
    #[arg(value_name = "SCENARIO", value_parser = Source::from_argument)]
    pub source: Source,
    /// The seed of the run's random draws (default: the scenario's).
    #[arg(long, value_name = "N", value_parser = seed())]
    pub seed: Option<u64>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Run the scenario and its twin on this lock service.
    #[arg(long, value_name = "SERVICE", value_parser = service)]
    pub against: Option<ChaosBackend>,
}

/// A value parser for a lock service's id.
fn service(id: &str) -> Result<ChaosBackend, String> {
    ChaosBackend::from_id(id).ok_or_else(|| {
        format!(
            "is not a lock service; the services are {}",
            ChaosBackend::ALL.map(ChaosBackend::id).join(", ")
        )
    })
}

pub fn run(args: &RunArgs) -> Result<String, CliError> {
    let scenario = args.source.load()?;
    if let Some(service) = args.against {
        return crate::against::run(&args.source, scenario, service, args.seed, args.format);
    }
    let seed = args.seed.unwrap_or(scenario.seed);
    let mut sim =
        Sim::with_log(&scenario, seed, &[]).map_err(|e| args.source.invalid(e.to_string()))?;
    sim.run_to_end();
    let output = match args.format {
        Format::Text => text(&scenario, seed, &sim),
        Format::Json => {
            let export = TraceExport::of(&sim, &scenario.id);
            serde_json::to_string_pretty(&export).unwrap_or_default() + "\n"
        }
    };
    if let Some(spent) = sim.stopped_by_budget() {
        // What ran is shown; its expectations are not judged on half a run.
        print!("{output}");
        return Err(args.source.invalid(spent.to_string()));
    }
    let failures: Vec<String> = scenario
        .expectations
        .iter()
        .filter_map(|expectation| expectation_check::check(expectation, &sim).err())
        .collect();
    if failures.is_empty() {
        Ok(output)
    } else {
        print!("{output}");
        Err(CliError::Expectations(failures))
    }
}

/// The title, the sources, the trace, how the run ended at the resource, and the hash.
fn text(scenario: &Scenario, seed: u64, sim: &Sim) -> String {
    format!(
        "{} (seed {seed})\n{}{}{}hash {}\n",
        scenario.title,
        source_lines(scenario),
        trace_text(sim),
        RunOutcome::of(sim.trace())
            .lines(sim.cast())
            .iter()
            .map(|line| format!("outcome: {line}\n"))
            .collect::<String>(),
        sim.hash()
    )
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
