//! Issue 14's native target: 1,000 runs of the article's chaos test (the SQL row, 8 clients,
//! 180 000 virtual ms, pauses and partitions), each generated, run and judged by
//! `chaos::run_chaos` (every invariant's first violation and the article's data check) and
//! added to a `ChaosReport` in seed order — what `lockstep-cli chaos --runs 1000` does. The
//! seeds are split over the machine's cores in contiguous ranges, as the CLI splits them, and
//! once on one core.
//!
//! A benchmark, not a test: it measures and prints; the target (≤ 3 s) is printed beside the
//! figure, not asserted. Wall-clock time is read here and only here.

use lockstep_sim::Sim;
use lockstep_sim::chaos::{ChaosReport, ChaosRun, ChaosSettings, run_chaos};
use lockstep_sim::invariant::Invariant;
use lockstep_sim::resource::Fencing;
use std::time::{Duration, Instant};

const RUNS: u64 = 1_000;
const TARGET: Duration = Duration::from_secs(3);

/// Seeds `1..=RUNS` over `threads` threads in contiguous ranges, merged in seed order.
fn report(settings: &ChaosSettings, threads: u64) -> ChaosReport {
    let per_thread = RUNS.div_ceil(threads);
    let runs: Vec<ChaosRun> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|part| {
                let first = 1 + part * per_thread;
                let last = (first + per_thread - 1).min(RUNS);
                scope.spawn(move || {
                    (first..=last)
                        .map(|seed| run_chaos(settings, seed))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a chaos run never panics"))
            .collect()
    });
    let mut report = ChaosReport::new(*settings, 1);
    for run in &runs {
        report.add(run).expect("runs come back in seed order");
    }
    report
}

fn main() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let mut check = Sim::new(&ChaosSettings::verification_test(Fencing::On).scenario(1))
        .expect("the article's scenario is valid");
    check.run_to_end();
    println!(
        "Chaos runs natively (`cargo bench` profile): {RUNS} runs of the article's test (SQL row, 8 clients, \
         180 000 virtual ms, pauses and partitions; seed 1 with fencing on: {} events, hash {}), each \
         generated, run and judged (first violation of every invariant, the article's data check), \
         merged in seed order; {cores} cores\n",
        check.trace().len(),
        check.hash()
    );
    println!(
        "| fencing | threads | {RUNS} runs | runs/s | broke \"no stale write\" | lost increments | target |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for fencing in [Fencing::On, Fencing::Off] {
        let settings = ChaosSettings::verification_test(fencing);
        let mut threads = vec![cores];
        if cores > 1 {
            threads.push(1);
        }
        for threads in threads {
            let started = Instant::now();
            let report = report(&settings, threads);
            let took = started.elapsed();
            println!(
                "| {} | {threads} | {:.2} s | {:.0} | {} | {} | {} |",
                if fencing == Fencing::On { "on" } else { "off" },
                took.as_secs_f64(),
                RUNS as f64 / took.as_secs_f64(),
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
    let settings = ChaosSettings::verification_test(Fencing::On);
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
