//! Issue 14's native target: 1,000 runs of the article's chaos test without its lock-service
//! failover (the SQL row, 8 clients, 180 000 virtual ms, pauses and partitions: the runs the
//! recorded figures were measured on), each generated, run and judged by `chaos::run_chaos`
//! (every invariant's first violation, the article's check and our data check) and
//! added to a `ChaosReport` in seed order — what `lockstep-cli chaos --runs 1000` does. The
//! seeds are split over the machine's cores in contiguous ranges, as the CLI splits them, and
//! once on one core.
//!
//! A benchmark, not a test: it measures and prints; the target (≤ 3 s) is printed beside the
//! figure, not asserted. Wall-clock time is read here and only here.

#![warn(clippy::too_many_lines)]
#![allow(
    clippy::disallowed_types,
    clippy::disallowed_methods,
    reason = "a benchmark measures wall-clock time, outside the simulation"
)]

use lockstep_sim::Sim;
use lockstep_sim::analysis::chaos::{ChaosReport, ChaosRun, ChaosSettings, run_chaos};
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::vocabulary::invariant::Invariant;
use std::time::{Duration, Instant};

const RUNS: u64 = 1_000;
const TARGET: Duration = Duration::from_secs(3);

/// What the kernel says this thread has had: time on a core and time waiting for one
/// (`/proc/thread-self/schedstat`, Linux only). On a machine shared with other builds, the
/// busiest thread's time on a core is what the wall time would be with a free core per thread.
fn schedstat() -> Option<(Duration, Duration)> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let mut fields = text.split_whitespace().map(|f| f.parse::<u64>().ok());
    let on_core = fields.next()??;
    let waiting = fields.next()??;
    Some((Duration::from_nanos(on_core), Duration::from_nanos(waiting)))
}

/// One thread's runs, and its time on a core and waiting for one while it made them.
struct Part {
    runs: Vec<ChaosRun>,
    on_core: Option<Duration>,
    waiting: Option<Duration>,
}

/// Seeds `1..=RUNS` over `threads` threads in contiguous ranges, merged in seed order; with the
/// busiest thread's time on a core and the threads' total wait for one.
fn report(
    settings: &ChaosSettings,
    threads: u64,
) -> (ChaosReport, Option<Duration>, Option<Duration>) {
    let per_thread = RUNS.div_ceil(threads);
    let parts: Vec<Part> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|part| {
                let first = 1 + part * per_thread;
                let last = (first + per_thread - 1).min(RUNS);
                scope.spawn(move || {
                    let before = schedstat();
                    let runs = (first..=last)
                        .map(|seed| run_chaos(settings, seed))
                        .collect::<Vec<_>>();
                    let spent = before.zip(schedstat());
                    Part {
                        runs,
                        on_core: spent.map(|((c0, _), (c1, _))| c1.saturating_sub(c0)),
                        waiting: spent.map(|((_, w0), (_, w1))| w1.saturating_sub(w0)),
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a chaos run never panics"))
            .collect()
    });
    let busiest = parts.iter().map(|p| p.on_core).max().flatten();
    let waited = parts.iter().map(|p| p.waiting).sum::<Option<Duration>>();
    let mut report = ChaosReport::new(*settings, 1);
    for run in parts.iter().flat_map(|p| &p.runs) {
        report.add(run).expect("runs come back in seed order");
    }
    (report, busiest, waited)
}

/// A duration in seconds with two decimals, or a dash where the kernel did not say.
fn seconds(duration: Option<Duration>) -> String {
    duration.map_or("–".to_owned(), |d| format!("{:.2} s", d.as_secs_f64()))
}

fn main() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let mut check = Sim::new(&ChaosSettings::pauses_and_partitions(Fencing::On).scenario(1))
        .expect("the article's scenario is valid");
    check.run_to_end();
    println!(
        "Chaos runs natively (`cargo bench` profile): {RUNS} runs of the article's test without its \
         lock-service failover (SQL row, 8 clients, 180 000 virtual ms, pauses and partitions; seed 1 \
         with fencing on: {} events, hash {}), each generated, run and judged (first violation of \
         every invariant, the article's check and our data check), \
         merged in seed order; {cores} cores. \
         \"Busiest thread on a core\" (Linux's schedstat): about the wall time if no other process \
         shared the cores\n",
        check.trace().len(),
        check.hash()
    );
    println!(
        "| fencing | threads | {RUNS} runs | runs/s | busiest thread on a core | waited for a core | broke \"no stale write\" | lost increments | target |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for fencing in [Fencing::On, Fencing::Off] {
        let settings = ChaosSettings::pauses_and_partitions(fencing);
        let mut threads = vec![cores];
        if cores > 1 {
            threads.push(1);
        }
        for threads in threads {
            let started = Instant::now();
            let (report, busiest, waited) = report(&settings, threads);
            let took = started.elapsed();
            println!(
                "| {} | {threads} | {:.2} s | {:.0} | {} | {} | {} | {} | {} |",
                if fencing == Fencing::On { "on" } else { "off" },
                took.as_secs_f64(),
                RUNS as f64 / took.as_secs_f64(),
                seconds(busiest),
                seconds(waited),
                report.runs_breaking(Invariant::NoStaleWrite),
                report.data_lost,
                if threads == cores {
                    format!("≤ {} s", TARGET.as_secs())
                } else {
                    "(one core, for comparison)".to_owned()
                }
            );
        }
    }
    // What judging adds: the same seeds run bare (scenario, run, trace) and through run_chaos,
    // alternating, on one core.
    let settings = ChaosSettings::pauses_and_partitions(Fencing::On);
    let (mut bare, mut judged) = (Duration::ZERO, Duration::ZERO);
    for seed in 1..=100 {
        let started = Instant::now();
        let mut sim = Sim::new(&settings.scenario(seed)).expect("valid");
        sim.run_to_end();
        std::hint::black_box(sim.trace().len());
        bare += started.elapsed();
        let started = Instant::now();
        std::hint::black_box(run_chaos(&settings, seed));
        judged += started.elapsed();
    }
    println!(
        "\nOne core, seeds 1–100, fencing on: {:.2} ms a run bare (generate, run), {:.2} ms judged \
         (run_chaos).",
        bare.as_secs_f64() * 10.0,
        judged.as_secs_f64() * 10.0
    );
}
