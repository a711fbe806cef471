//! The simulator's speed in the page: two exports of the real app wasm that
//! `e2e/bench-wasm-speed.mjs` calls and times from JavaScript (with `performance.now()`) against
//! the same chaos run natively (`crates/lockstep-sim/benches/in_page_reference.rs`).
//!
//! Nothing here reads a clock: the simulation never sees time, and the timing belongs to the
//! caller. Nothing in the app calls these; they exist for the benchmark, so they are compiled
//! only with the `bench-exports` feature (and in the native tests): the shipped page has none.

use lockstep_sim::Sim;
use lockstep_sim::analysis::chaos::ChaosSettings;
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::types::Scenario;
use wasm_bindgen::prelude::wasm_bindgen;

/// The run both sides measure: the article's chaos test without its lock-service failover
/// (180 000 virtual ms, 8 clients, pauses and partitions) against the SQL row with fencing on,
/// seed 1 — the run the recorded figures were measured on.
fn reference() -> Scenario {
    ChaosSettings::pauses_and_partitions(Fencing::On).scenario(1)
}

fn run_once(scenario: &Scenario) -> Sim {
    // The chaos generator only makes valid scenarios (its own tests check it); an invalid one
    // would be a bug there, and yields an empty run that the benchmark's event check rejects.
    let mut sim = Sim::new(scenario).unwrap_or_else(|_| Sim::idle());
    sim.run_to_end();
    sim
}

/// Runs the reference chaos run `runs` times, each from the scenario to the finished trace,
/// and returns the number of events all the runs recorded together.
#[wasm_bindgen(js_name = lockstepChaosRuns)]
pub fn chaos_runs(runs: u32) -> u32 {
    let scenario = reference();
    (0..runs)
        .map(|_| run_once(&scenario).trace().len() as u32)
        .sum()
}

/// The trace hash of one reference run, to check that the page ran the run the native side did.
#[wasm_bindgen(js_name = lockstepChaosHash)]
pub fn chaos_hash() -> String {
    run_once(&reference()).hash()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_add_up_and_the_run_is_deterministic() {
        let one = chaos_runs(1);
        assert!(one > 10_000, "the reference run has only {one} events");
        assert_eq!(chaos_runs(2), 2 * one);
        assert_eq!(chaos_hash(), chaos_hash());
    }
}
