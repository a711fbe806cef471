//! `lockstep-cli matrix`: the chaos test for every lock service × every fault, fencing on and
//! off, as one Markdown table per lock service (README's numbers are pasted from it). It only
//! runs and counts; what each count means is the README's to explain.

use crate::args::{threads, whole};
use crate::chaos::{MAX_RUNS, report};
use lockstep_sim::analysis::chaos::ChaosBackend;
use lockstep_sim::analysis::chaos::ChaosReport;
use lockstep_sim::analysis::chaos::ChaosSettings;
use lockstep_sim::analysis::chaos::FaultKind;
use lockstep_sim::analysis::chaos::FaultSet;
use lockstep_sim::analysis::chaos::ReportError;
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::vocabulary::invariant::Invariant;
use std::fmt::Write;
use std::num::NonZeroUsize;

/// What `lockstep-cli matrix` was asked to do.
#[derive(Debug, PartialEq, Eq, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct MatrixArgs {
    /// Runs per cell for every service but the consensus one.
    #[arg(long, value_name = "N", default_value_t = 1_000, value_parser = whole(1..=MAX_RUNS))]
    pub runs: u64,
    /// Runs per cell for the consensus service, whose promises are the ones to hunt.
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = whole(1..=MAX_RUNS))]
    pub consensus_runs: u64,
    /// Default: as many as the machine has cores.
    #[arg(long, value_name = "T", value_parser = threads())]
    pub threads: Option<NonZeroUsize>,
}

/// The fault mixes, one column each: every kind alone, then all four.
fn mixes() -> Vec<FaultSet> {
    FaultKind::ALL
        .iter()
        .map(|&kind| FaultSet::of(&[kind]))
        .chain([FaultSet::of(&FaultKind::ALL)])
        .collect()
}

fn mix_label(mix: FaultSet) -> String {
    if mix == FaultSet::of(&FaultKind::ALL) {
        "all four".to_owned()
    } else {
        mix.iter().map(|k| k.label().to_lowercase()).collect()
    }
}

/// One service's reports: for each mix, fencing on then off.
struct Row {
    backend: ChaosBackend,
    runs: u64,
    cells: Vec<[ChaosReport; 2]>,
}

/// Runs every cell and renders the tables.
pub fn run(command: &MatrixArgs) -> Result<String, ReportError> {
    let threads = command
        .threads
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get);
    let mut out = String::new();
    for backend in ChaosBackend::ALL {
        let runs = if backend == ChaosBackend::Consensus {
            command.consensus_runs
        } else {
            command.runs
        };
        let mut cells = Vec::new();
        for mix in mixes() {
            let settings = |fencing| ChaosSettings {
                faults: mix,
                ..ChaosSettings::verification_test(fencing).with_backend(backend)
            };
            cells.push([
                report(&settings(Fencing::On), 1, runs, threads)?,
                report(&settings(Fencing::Off), 1, runs, threads)?,
            ]);
        }
        render(
            &mut out,
            &Row {
                backend,
                runs,
                cells,
            },
        );
    }
    Ok(out)
}

/// A service's table: a row per invariant and one for our data check, a column per
/// fault mix, each cell the runs that broke it with fencing on / off.
fn render(out: &mut String, row: &Row) {
    let _ = writeln!(
        out,
        "{} — runs broken of {} a cell, fencing on / off (seeds 1–{}, 8 clients, 180,000 ms)\n",
        row.backend.label(),
        row.runs,
        row.runs
    );
    let header: Vec<String> = mixes().into_iter().map(mix_label).collect();
    let _ = writeln!(out, "| invariant | {} |", header.join(" | "));
    let _ = writeln!(out, "|---|{}", "---|".repeat(header.len()));
    for invariant in Invariant::ALL {
        let cells: Vec<String> = row
            .cells
            .iter()
            .map(|[on, off]| {
                format!(
                    "{} / {}",
                    on.runs_breaking(invariant),
                    off.runs_breaking(invariant)
                )
            })
            .collect();
        let _ = writeln!(out, "| {} | {} |", invariant.id(), cells.join(" | "));
    }
    let lost: Vec<String> = row
        .cells
        .iter()
        .map(|[on, off]| format!("{} / {}", on.data_lost, off.data_lost))
        .collect();
    let _ = writeln!(
        out,
        "| data check: increments lost | {} |\n",
        lost.join(" | ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flags of `matrix <line>`, or the words of their usage error.
    fn parse_line(line: &str) -> Result<MatrixArgs, String> {
        let arguments: Vec<String> = ["matrix"]
            .into_iter()
            .chain(line.split_whitespace())
            .map(String::from)
            .collect();
        match crate::cli::parse(&arguments) {
            Ok(crate::cli::Parsed::Command(crate::cli::Command::Matrix(args))) => Ok(args),
            Err(error) => Err(error.to_string()),
            Ok(other) => panic!("not a matrix command: {other:?}"),
        }
    }

    #[test]
    fn reads_its_flags_and_refuses_bad_ones() {
        let command = parse_line("--runs 5 --consensus-runs 7").unwrap();
        assert_eq!((command.runs, command.consensus_runs), (5, 7));
        assert_eq!(
            parse_line("--runs 0"),
            Err("matrix: --runs: \"0\" is not a whole number from 1 to 1000000".into())
        );
        assert_eq!(
            parse_line("--threads 65"),
            Err("matrix: --threads: \"65\" is not a whole number from 1 to 64".into())
        );
        assert_eq!(
            parse_line("--threads"),
            Err("matrix: --threads needs a value".into())
        );
        assert_eq!(
            parse_line("--fencing on"),
            Err("matrix: unexpected argument \"--fencing\"".into())
        );
    }

    #[test]
    fn five_mixes_every_kind_alone_then_all() {
        let labels: Vec<String> = mixes().into_iter().map(mix_label).collect();
        assert_eq!(
            labels,
            [
                "pauses",
                "partitions",
                "clock jumps",
                "lock-service crashes",
                "all four"
            ]
        );
    }

    /// The table counts what the reports counted: one run of the unfenced SQL row with pauses
    /// breaks the belief invariant, and the cell says so.
    #[test]
    fn a_cell_shows_its_reports_counts() {
        let mix = FaultSet::of(&[FaultKind::Pauses]);
        let settings = |fencing| ChaosSettings {
            faults: mix,
            ..ChaosSettings::verification_test(fencing)
        };
        let on = report(&settings(Fencing::On), 1, 3, 1).unwrap();
        let off = report(&settings(Fencing::Off), 1, 3, 1).unwrap();
        let expected = format!(
            "| one_believer | {} / {} |",
            on.runs_breaking(Invariant::OneBeliever),
            off.runs_breaking(Invariant::OneBeliever)
        );
        assert!(on.runs_breaking(Invariant::OneBeliever) > 0);
        let row = Row {
            backend: ChaosBackend::SqlRow,
            runs: 3,
            cells: vec![[on.clone(), off.clone()]; 5],
        };
        let mut out = String::new();
        render(&mut out, &row);
        assert!(out.contains(&expected), "{out}");
    }
}
