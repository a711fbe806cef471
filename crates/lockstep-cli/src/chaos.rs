//! `lockstep-cli chaos`: many seeds of a chaos run, summed up as a table or as the chaos report's
//! JSON (the same report the chaos lab exports). Runs are spread over threads, each taking a
//! contiguous range of seeds; the report adds them in seed order, so the output does not depend
//! on the number of threads or their scheduling.

use crate::args::{Format, seed, threads, whole};
use crate::error::CliError;
use lockstep_sim::analysis::chaos::ChaosReport;
use lockstep_sim::analysis::chaos::ChaosRun;
use lockstep_sim::analysis::chaos::ChaosSettings;
use lockstep_sim::analysis::chaos::ReportError;
use lockstep_sim::analysis::chaos::run_chaos;
use lockstep_sim::vocabulary::invariant::Invariant;
use std::fmt::Write;
use std::num::{NonZeroU64, NonZeroUsize};
use std::ops::Range;

/// The most runs one command may ask for.
pub const MAX_RUNS: u64 = 1_000_000;

/// `lockstep-cli chaos`'s flags. The settings' values are read by [`ChaosSettings`], which
/// words their errors; settings not given are the article's test, fencing on.
#[derive(Debug, PartialEq, Eq, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct ChaosArgs {
    /// The lock service: sql-row, cache, replicated-cache, data-grid, redlock or consensus.
    #[arg(long, value_name = "ID")]
    backend: Option<String>,
    /// on, off, check-and-set or sequencer.
    #[arg(long, value_name = "MODE")]
    fencing: Option<String>,
    /// How many clients compete for the lock.
    #[arg(long, value_name = "C")]
    clients: Option<String>,
    /// none, or some of pauses,partitions,clock-jumps,crashes.
    #[arg(long, value_name = "LIST")]
    faults: Option<String>,
    /// Virtual milliseconds a run.
    #[arg(long, value_name = "MS")]
    duration: Option<String>,
    #[arg(long, value_name = "N", default_value_t = 1_000, value_parser = whole(1..=MAX_RUNS))]
    runs: u64,
    /// The first seed; the runs take the seeds after it.
    #[arg(long = "seed", value_name = "S", default_value_t = 1, value_parser = seed())]
    first_seed: u64,
    /// Default: as many as the machine has cores.
    #[arg(long, value_name = "T", value_parser = threads())]
    threads: Option<NonZeroUsize>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Print the scenario of this seed (a file `lockstep-cli run` replays) instead of running.
    #[arg(long, value_name = "SEED", value_parser = seed())]
    print_scenario: Option<u64>,
}

impl ChaosArgs {
    /// The command these flags ask for, once the settings are read and the seeds fit.
    pub fn command(&self) -> Result<ChaosCommand, CliError> {
        let usage = |message: String| CliError::Usage {
            command: Some("chaos".to_owned()),
            message,
        };
        let given = [
            ("backend", &self.backend),
            ("fencing", &self.fencing),
            ("clients", &self.clients),
            ("faults", &self.faults),
            ("duration", &self.duration),
        ];
        let pairs = given
            .into_iter()
            .filter_map(|(key, value)| value.as_deref().map(|value| (key, value)));
        let settings =
            ChaosSettings::from_pairs(pairs).map_err(|error| usage(format!("--{error}")))?;
        let (first_seed, runs) = (self.first_seed, self.runs);
        if first_seed.checked_add(runs - 1).is_none() {
            return Err(usage(format!(
                "--seed {first_seed} with --runs {runs} goes past the largest seed, {}",
                u64::MAX
            )));
        }
        Ok(ChaosCommand {
            settings,
            first_seed,
            runs,
            threads: self.threads,
            format: self.format,
            print_scenario: self.print_scenario,
        })
    }
}

/// What `lockstep-cli chaos` was asked to do.
#[derive(Debug, PartialEq, Eq)]
pub struct ChaosCommand {
    pub settings: ChaosSettings,
    pub first_seed: u64,
    pub runs: u64,
    /// `None`: as many as the machine has cores.
    pub threads: Option<NonZeroUsize>,
    pub format: Format,
    /// Print the scenario of this seed (a file `lockstep-cli run` replays) instead of running.
    pub print_scenario: Option<u64>,
}

/// Runs the command and renders its report.
pub fn run(command: &ChaosCommand) -> Result<String, ReportError> {
    if let Some(seed) = command.print_scenario {
        let scenario = command.settings.scenario(seed);
        return Ok(serde_json::to_string_pretty(&scenario).unwrap_or_default() + "\n");
    }
    let threads = command
        .threads
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get);
    let report = report(&command.settings, command.first_seed, command.runs, threads)?;
    Ok(match command.format {
        Format::Text => table(&report),
        Format::Json => serde_json::to_string_pretty(&report).unwrap_or_default() + "\n",
    })
}

/// The report of runs `first_seed .. first_seed + runs`, run on `threads` threads. Runs come
/// back in seed order by construction; `add` refuses any other, so a mistake there is an error,
/// never a report that silently depends on scheduling.
pub fn report(
    settings: &ChaosSettings,
    first_seed: u64,
    runs: u64,
    threads: usize,
) -> Result<ChaosReport, ReportError> {
    let mut report = ChaosReport::new(*settings, first_seed);
    for chunk in chunks(first_seed, runs, threads) {
        for run in run_in_parallel(settings, chunk, threads) {
            report.add(&run)?;
        }
    }
    Ok(report)
}

/// Seed ranges of at most 10,000 runs, so a long command does not hold every run at once.
fn chunks(first_seed: u64, runs: u64, threads: usize) -> Vec<Range<u64>> {
    let size = 10_000u64.max(u64::try_from(threads).unwrap_or(1));
    let end = first_seed.saturating_add(runs);
    let mut ranges = Vec::new();
    let mut start = first_seed;
    while start < end {
        let stop = start.saturating_add(size).min(end);
        ranges.push(start..stop);
        start = stop;
    }
    ranges
}

/// Runs `seeds` split into `threads` contiguous parts, and returns the runs in seed order.
fn run_in_parallel(settings: &ChaosSettings, seeds: Range<u64>, threads: usize) -> Vec<ChaosRun> {
    let count = seeds.end - seeds.start;
    let parts = u64::try_from(threads).unwrap_or(1).clamp(1, count.max(1));
    let per_part = count.div_ceil(parts);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..parts)
            .map(|part| {
                let start = seeds.start + part * per_part;
                let stop = (start + per_part).min(seeds.end);
                scope.spawn(move || {
                    (start..stop)
                        .map(|seed| run_chaos(settings, seed))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().unwrap_or_default())
            .collect()
    })
}

/// The report as a readable table.
fn table(report: &ChaosReport) -> String {
    let mut out = heading(report);
    invariant_rows(&mut out, report);
    checks(&mut out, report);
    histogram(&mut out, report);
    violating_seeds(&mut out, report);
    out
}

/// The settings and the seeds run.
fn heading(report: &ChaosReport) -> String {
    let last_seed = report.first_seed + report.runs.saturating_sub(1);
    format!(
        "Chaos: {}\n{} runs, seeds {}–{last_seed}\n\n",
        report.settings.words(),
        report.runs,
        report.first_seed
    )
}

/// A row per invariant: the runs that broke it and their share.
fn invariant_rows(out: &mut String, report: &ChaosReport) {
    let width = Invariant::ALL
        .iter()
        .map(|i| i.statement().chars().count())
        .max()
        .unwrap_or(0);
    let _ = writeln!(
        out,
        "{:<width$}  {:>11}  {:>6}",
        "Invariant", "runs broken", "share"
    );
    for count in &report.broken {
        let _ = writeln!(
            out,
            "{:<width$}  {:>11}  {:>6}",
            count.invariant.statement(),
            count.runs,
            share(count.runs, report.runs)
        );
    }
}

/// The article's check and ours, each under its own name.
fn checks(out: &mut String, report: &ChaosReport) {
    let _ = writeln!(
        out,
        "\nThe article's check (at most one accepted writer at any moment): {}",
        match report.two_accepted_writers {
            Some(runs) => format!(
                "two accepted writers at one moment in {runs} runs ({})",
                share(runs, report.runs)
            ),
            None => "not run".to_owned(),
        }
    );
    let _ = writeln!(
        out,
        "Our data check (stronger: the final value is the accepted increments applied in order, \
         none lost): increments lost in {} runs ({}); no write accepted in {}; not judged in {}",
        report.data_lost,
        share(report.data_lost, report.runs),
        report.nothing_accepted,
        report.unjudged
    );
}

/// When the first violation came, as bars; nothing when no run broke anything.
fn histogram(out: &mut String, report: &ChaosReport) {
    let histogram = &report.first_violation;
    let most = histogram
        .counts
        .iter()
        .copied()
        .max()
        .and_then(NonZeroU64::new);
    let Some(most) = most else {
        return;
    };
    let _ = writeln!(
        out,
        "\nWhen the first violation came (runs per {} ms of virtual time):",
        histogram.bucket_ms.0
    );
    for (i, &count) in histogram.counts.iter().enumerate() {
        let from = u64::try_from(i).unwrap_or(0) * histogram.bucket_ms.0;
        let span = format!("{from}–{} ms", from + histogram.bucket_ms.0);
        let bar = "#".repeat(usize::try_from(count * 40 / most).unwrap_or(0));
        let line = format!("{span:>18}  {count:>6}  {bar}");
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// The seeds that broke something, and how to print the first one's scenario.
fn violating_seeds(out: &mut String, report: &ChaosReport) {
    let seeds: Vec<u64> = report.violating.iter().map(|v| v.seed).collect();
    let _ = writeln!(
        out,
        "\nViolating seeds ({}): {}",
        seeds.len(),
        if seeds.is_empty() {
            "none".to_owned()
        } else {
            ranges(&seeds)
        }
    );
    if let Some(first) = report.violating.first() {
        let _ = writeln!(
            out,
            "A seed's scenario, for `lockstep-cli run`: lockstep-cli chaos {} --print-scenario {} \
             > chaos.json",
            flags(&report.settings),
            first.seed
        );
    }
}

/// The flags that give these settings.
fn flags(settings: &ChaosSettings) -> String {
    settings
        .pairs()
        .iter()
        .map(|(key, value)| format!("--{key} {value}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `part` of `whole` as a percentage with one decimal.
fn share(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "–".to_owned();
    }
    let tenths = (part * 1_000 + whole / 2) / whole;
    format!("{}.{}%", tenths / 10, tenths % 10)
}

/// Sorted seeds written with runs of consecutive ones as ranges: `1–3, 7, 9–10`.
fn ranges(seeds: &[u64]) -> String {
    let mut parts = Vec::new();
    let mut iter = seeds.iter().copied().peekable();
    while let Some(start) = iter.next() {
        let mut end = start;
        while let Some(next) = iter.next_if(|&next| end.checked_add(1) == Some(next)) {
            end = next;
        }
        parts.push(if end == start {
            start.to_string()
        } else {
            format!("{start}–{end}")
        });
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::analysis::chaos::ChaosBackend;
    use lockstep_sim::analysis::chaos::ClientCount;
    use lockstep_sim::analysis::chaos::FaultKind;
    use lockstep_sim::analysis::chaos::FaultSet;
    use lockstep_sim::models::resource::Fencing;
    use lockstep_sim::world::time::Millis;

    /// The command `chaos <line>` asks for, or the words of its usage error.
    fn parse_line(line: &str) -> Result<ChaosCommand, String> {
        let arguments: Vec<String> = ["chaos"]
            .into_iter()
            .chain(line.split_whitespace())
            .map(String::from)
            .collect();
        match crate::cli::parse(&arguments) {
            Ok(crate::cli::Parsed::Command(crate::cli::Command::Chaos(args))) => {
                args.command().map_err(|error| error.to_string())
            }
            Err(error) => Err(error.to_string()),
            Ok(other) => panic!("not a chaos command: {other:?}"),
        }
    }

    #[test]
    fn flags_set_the_settings_and_the_rest_is_the_articles_test() {
        let command = parse_line(
            "--backend redlock --fencing off --runs 20 --seed 5 --clients 3 \
             --faults clock-jumps,crashes --duration 20000 --format json --threads 2",
        )
        .expect("valid");
        assert_eq!(
            command,
            ChaosCommand {
                settings: ChaosSettings {
                    backend: ChaosBackend::Redlock,
                    fencing: Fencing::Off,
                    clients: ClientCount::new(3).expect("in range"),
                    faults: FaultSet::of(&[FaultKind::ClockJumps, FaultKind::Crashes]),
                    duration: Millis(20_000),
                },
                first_seed: 5,
                runs: 20,
                threads: NonZeroUsize::new(2),
                format: Format::Json,
                print_scenario: None,
            }
        );
        let defaults = parse_line("").expect("valid");
        assert_eq!(
            defaults.settings,
            ChaosSettings::verification_test(Fencing::On)
        );
        assert_eq!((defaults.first_seed, defaults.runs), (1, 1_000));
    }

    #[test]
    fn bad_flags_say_what_is_wrong() {
        let error = |line: &str| {
            let words = parse_line(line).expect_err(line);
            let flag_error = words.strip_prefix("chaos: ").map(str::to_owned);
            flag_error.unwrap_or_else(|| panic!("not named as chaos's: {words}"))
        };
        assert_eq!(
            error("--backend etcd"),
            "--backend: \"etcd\": not a lock service; use one of sql-row, cache, \
             replicated-cache, data-grid, redlock, consensus"
        );
        assert_eq!(error("--fencing"), "--fencing needs a value");
        assert_eq!(
            error("--runs 0"),
            "--runs: \"0\" is not a whole number from 1 to 1000000"
        );
        assert_eq!(
            error("--clients 9"),
            "--clients: \"9\": not a whole number from 1 to 8"
        );
        assert_eq!(
            error("--seed 18446744073709551615 --runs 2"),
            "--seed 18446744073709551615 with --runs 2 goes past the largest seed, \
             18446744073709551615"
        );
        assert_eq!(
            error("--threads 0"),
            "--threads: \"0\" is not a whole number from 1 to 64"
        );
        assert_eq!(
            error("--format xml"),
            "--format: \"xml\" is not one of text, json"
        );
        assert_eq!(
            error("--fencing on --fencing off"),
            "--fencing is given twice"
        );
        assert_eq!(error("sql-row"), "unexpected argument \"sql-row\"");
    }

    #[test]
    fn the_report_does_not_depend_on_the_number_of_threads() {
        let settings = ChaosSettings {
            duration: Millis(20_000),
            ..ChaosSettings::verification_test(Fencing::Off)
        };
        let one = report(&settings, 3, 9, 1).expect("in seed order");
        assert_eq!(one.runs, 9);
        assert!(!one.violating.is_empty(), "fencing off breaks something");
        for threads in [2, 4, 16] {
            assert_eq!(
                report(&settings, 3, 9, threads),
                Ok(one.clone()),
                "{threads} threads"
            );
        }
        let mut direct = ChaosReport::new(settings, 3);
        for seed in 3..12 {
            direct.add(&run_chaos(&settings, seed)).expect("in order");
        }
        assert_eq!(one, direct);
    }

    #[test]
    fn seeds_are_written_as_ranges() {
        assert_eq!(ranges(&[1, 2, 3, 7, 9, 10]), "1–3, 7, 9–10");
        assert_eq!(
            ranges(&[u64::MAX - 1, u64::MAX]),
            "18446744073709551614–18446744073709551615"
        );
        assert_eq!(share(1, 3), "33.3%");
        assert_eq!(share(0, 0), "–");
    }
}
