//! The simulator's throughput, natively: events the engine handles per second, and the time one
//! whole chaos run (the article's verification test: 180 000 virtual ms, 8 clients, pauses and
//! partitions) takes, from the scenario to the finished trace.
//!
//! A benchmark, not a test: it asserts nothing about speed, it measures and prints. Run it with
//! `cargo xtask bench`. Wall-clock time is read here and only here: the simulation never sees it.

#![warn(clippy::too_many_lines)]
#![allow(
    clippy::disallowed_types,
    clippy::disallowed_methods,
    reason = "a benchmark measures wall-clock time, outside the simulation"
)]

use lockstep_sim::Sim;
use lockstep_sim::analysis::chaos::{ChaosBackend, ChaosSettings};
use lockstep_sim::models::resource::Fencing;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Times `run` (after an untimed `prepare`) until at least `budget` has passed and at least 3
/// times; returns the number of runs, the fastest single run, and what the run reported.
fn measure<T>(
    budget: Duration,
    mut prepare: impl FnMut() -> T,
    mut run: impl FnMut(T) -> usize,
) -> (usize, Duration, usize) {
    let started = Instant::now();
    let mut runs = 0;
    let mut fastest = Duration::MAX;
    let mut events = 0;
    while runs < 3 || started.elapsed() < budget {
        let input = prepare();
        let one = Instant::now();
        events = black_box(run(input));
        fastest = fastest.min(one.elapsed());
        runs += 1;
    }
    (runs, fastest, events)
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

fn main() {
    let budget = Duration::from_secs(2);
    let cases = [
        ("SQL row, fencing on", Fencing::On, ChaosBackend::SqlRow),
        ("SQL row, fencing off", Fencing::Off, ChaosBackend::SqlRow),
        ("Redlock, 5 nodes", Fencing::Off, ChaosBackend::Redlock),
        (
            "consensus, 3 replicas",
            Fencing::On,
            ChaosBackend::Consensus,
        ),
    ];
    println!("lockstep-sim throughput (native, `cargo bench` profile, one core)\n");
    println!("Chaos runs: 180 000 virtual ms, 8 clients, pauses and partitions.\n");
    println!(
        "| backend | events | engine: time stepping | engine: events per second | whole run: scenario to trace |"
    );
    println!("|---|---:|---:|---:|---:|");
    for (label, fencing, backend) in cases {
        let scenario = ChaosSettings::pauses_and_partitions(fencing)
            .with_backend(backend)
            .scenario(1);
        let fresh = || Sim::new(&scenario).expect("chaos scenarios are valid");
        let (_, stepping, events) = measure(budget, fresh, |mut sim| {
            sim.run_to_end();
            sim.trace().len()
        });
        let (runs, whole, _) = measure(
            budget,
            || (),
            |()| {
                let mut sim = fresh();
                sim.run_to_end();
                sim.trace().len()
            },
        );
        println!(
            "| {label} ({runs} runs) | {events} | {:.2} ms | {:.1} M | {:.2} ms |",
            millis(stepping),
            events as f64 / stepping.as_secs_f64() / 1e6,
            millis(whole)
        );
    }
    let scenario = ChaosSettings::pauses_and_partitions(Fencing::On).scenario(1);
    let (runs, fastest, _) = measure(
        budget,
        || (),
        |()| {
            let mut sim = Sim::new(&scenario).expect("valid");
            sim.run_to_end();
            sim.hash().len()
        },
    );
    println!(
        "\nA whole SQL-row run plus its trace hash (FNV-1a over the trace's JSON): {:.2} ms ({runs} runs).",
        millis(fastest)
    );
}
