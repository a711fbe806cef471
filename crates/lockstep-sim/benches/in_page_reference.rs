//! The native half of `cargo xtask bench`'s "simulator in the page ÷ native" row: the same chaos
//! run that the app's wasm export `lockstepChaosRuns` runs in the page (the article's chaos
//! test without its lock-service failover, against the SQL row, fencing on, seed 1; see
//! `src/speed.rs` in the app), measured the
//! same way: batches of [`RUNS_PER_BATCH`] runs, each from the scenario to the finished trace,
//! the fastest batch kept.
//!
//! A benchmark, not a test: it measures and prints. With `--json` it prints one line of JSON for
//! `e2e/bench-wasm-speed.mjs` (events per run, the trace hash, the fastest batch); without, one
//! sentence. Wall-clock time is read here only, never by the simulation.

#![warn(clippy::too_many_lines)]
#![allow(
    clippy::disallowed_types,
    clippy::disallowed_methods,
    reason = "a benchmark measures wall-clock time, outside the simulation"
)]

use lockstep_sim::Sim;
use lockstep_sim::analysis::chaos::ChaosSettings;
use lockstep_sim::models::resource::Fencing;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Runs per timed batch, the same as the page's (a batch takes tens of milliseconds, well above
/// the page's 0.1-ms timer steps).
const RUNS_PER_BATCH: u32 = 10;
/// At least this many batches, and at least [`BUDGET`] of them.
const MIN_BATCHES: u32 = 3;
const BUDGET: Duration = Duration::from_secs(2);

fn main() {
    let json = std::env::args().any(|arg| arg == "--json");
    let scenario = ChaosSettings::pauses_and_partitions(Fencing::On).scenario(1);
    let run = || {
        let mut sim = Sim::new(&scenario).expect("chaos scenarios are valid");
        sim.run_to_end();
        sim
    };
    let reference = run();
    let events = reference.trace().len();
    let hash = reference.hash();
    let started = Instant::now();
    let mut batches = 0;
    let mut fastest = Duration::MAX;
    while batches < MIN_BATCHES || started.elapsed() < BUDGET {
        let one = Instant::now();
        let recorded: usize = (0..RUNS_PER_BATCH)
            .map(|_| black_box(run()).trace().len())
            .sum();
        fastest = fastest.min(one.elapsed());
        assert_eq!(
            recorded,
            events * RUNS_PER_BATCH as usize,
            "the run is deterministic"
        );
        batches += 1;
    }
    let batch_ms = fastest.as_secs_f64() * 1e3;
    let per_second = (events as f64 * f64::from(RUNS_PER_BATCH)) / fastest.as_secs_f64();
    if json {
        println!(
            "{{\"events\": {events}, \"hash\": \"{hash}\", \"runs_per_batch\": {RUNS_PER_BATCH}, \
             \"batches\": {batches}, \"fastest_batch_ms\": {batch_ms:.3}}}"
        );
    } else {
        println!(
            "\nThe in-page reference run, natively: {events} events (hash {hash}), {:.2} ms a run \
             from scenario to trace, {:.1} M events/s (fastest of {batches} batches of \
             {RUNS_PER_BATCH}).",
            batch_ms / f64::from(RUNS_PER_BATCH),
            per_second / 1e6
        );
    }
}
