//! The simulator's throughput, natively: events handled per second, and the time one chaos run
//! (the seed's test: 180 000 virtual ms, 8 clients, pauses and partitions) takes.
//!
//! A benchmark, not a test: it asserts nothing about speed, it measures and prints. Run it with
//! `cargo xtask bench`. Wall-clock time is read here and only here: the simulation never sees it.

use lockstep_sim::Sim;
use lockstep_sim::chaos::{Chaos, ChaosBackend};
use lockstep_sim::resource::Fencing;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Runs `run` until at least `budget` has passed (and at least 3 times); returns the number of
/// runs and the fastest single run.
fn measure(budget: Duration, mut run: impl FnMut() -> usize) -> (usize, Duration, usize) {
    let started = Instant::now();
    let mut runs = 0;
    let mut fastest = Duration::MAX;
    let mut events = 0;
    while runs < 3 || started.elapsed() < budget {
        let one = Instant::now();
        events = black_box(run());
        fastest = fastest.min(one.elapsed());
        runs += 1;
    }
    (runs, fastest, events)
}

fn main() {
    let budget = Duration::from_secs(3);
    println!("lockstep-sim throughput (native, `cargo bench` profile, one core)\n");
    println!("| run | events | fastest run | events per second |");
    println!("|---|---:|---:|---:|");
    let runs = [
        ("SQL row, fencing on", Fencing::On, ChaosBackend::SqlRow),
        ("SQL row, fencing off", Fencing::Off, ChaosBackend::SqlRow),
        ("Redlock, 5 nodes", Fencing::Off, ChaosBackend::Redlock),
        (
            "consensus, 3 replicas",
            Fencing::On,
            ChaosBackend::Consensus,
        ),
    ];
    for (label, fencing, backend) in runs {
        let scenario = Chaos::seed_test(1, fencing)
            .with_backend(backend)
            .scenario();
        let (runs, fastest, events) = measure(budget, || {
            let mut sim = Sim::new(&scenario).expect("chaos scenarios are valid");
            sim.run_to_end();
            sim.trace().len()
        });
        let per_second = events as f64 / fastest.as_secs_f64();
        println!(
            "| chaos, {label} (180 000 virtual ms, 8 clients; {runs} runs) | {events} | {:.2} ms | {:.1} M |",
            fastest.as_secs_f64() * 1e3,
            per_second / 1e6
        );
    }
    let scenario = Chaos::seed_test(1, Fencing::On).scenario();
    let (runs, fastest, events) = measure(budget, || {
        let mut sim = Sim::new(&scenario).expect("valid");
        sim.run_to_end();
        let hash = sim.hash();
        hash.len() + sim.trace().len()
    });
    println!(
        "| chaos run + trace hash ({runs} runs) | {} | {:.2} ms | — |",
        events.saturating_sub(16),
        fastest.as_secs_f64() * 1e3
    );
}
