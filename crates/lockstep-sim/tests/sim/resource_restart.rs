//! A resource that crashes and restarts: its data survives, and its memory of the highest
//! token survives only if it is kept durably. `no_stale_write` is judged from the grants, not
//! with the resource's own rule, so it catches the stale write a forgetful resource lets in.

use crate::support::{built_in, run};
use lockstep_sim::models::resource::TokenMemory;
use lockstep_sim::scenario::types::ResourceSpec;
use lockstep_sim::vocabulary::happening::Happening;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::world::token::FencingToken;
use lockstep_sim::{Scenario, Sim};

const SCENARIO: &str = "s2-gc-pause-fenced-resource-restarts";

/// The catalogue's scenario with the resource's token memory set to `memory`.
fn remembering(memory: TokenMemory) -> Scenario {
    let mut scenario = built_in(SCENARIO);
    if let ResourceSpec::Register { token_memory, .. } = &mut scenario.resource {
        *token_memory = memory;
    }
    scenario
}

/// The events that judged client-a's late write with token 33: what the resource did with it,
/// and the invariants that event broke.
fn late_write(sim: &Sim) -> Vec<(&'static str, bool)> {
    sim.trace()
        .iter()
        .filter_map(|event| match event.happening {
            Happening::WriteAccepted {
                token: Some(FencingToken(33)),
                ..
            } => Some(("accepted", event.broke.contains(Invariant::NoStaleWrite))),
            Happening::WriteRejected { .. } => {
                Some(("rejected", event.broke.contains(Invariant::NoStaleWrite)))
            }
            _ => None,
        })
        .collect()
}

/// Whether `invariant` stands violated at the end of the run.
fn ends_violated(sim: &Sim, invariant: Invariant) -> bool {
    sim.trace()
        .last()
        .is_some_and(|event| event.violated.contains(invariant))
}

fn forgotten(sim: &Sim) -> Vec<Option<FencingToken>> {
    sim.trace()
        .iter()
        .filter_map(|event| match event.happening {
            Happening::Crashed { forgot_token, .. } => Some(forgot_token),
            _ => None,
        })
        .collect()
}

#[test]
fn a_volatile_memory_forgets_34_and_the_stale_write_is_flagged() {
    let sim = run(&remembering(TokenMemory::Volatile));
    assert_eq!(forgotten(&sim), [Some(FencingToken(34))]);
    assert_eq!(late_write(&sim), [("accepted", true)]);
    assert!(ends_violated(&sim, Invariant::NoStaleWrite));
}

#[test]
fn a_durable_memory_keeps_34_and_the_stale_write_is_rejected() {
    let sim = run(&remembering(TokenMemory::Durable));
    assert_eq!(forgotten(&sim), [None]);
    assert_eq!(late_write(&sim), [("rejected", false)]);
    assert!(!ends_violated(&sim, Invariant::NoStaleWrite));
}

/// The field is written only when it differs from the default, so a scenario that never chose
/// is written as before (the recorded property cases and links depend on it).
#[test]
fn only_a_volatile_memory_is_written_out() {
    let written = |memory| {
        serde_json::to_string(&remembering(memory).resource).expect("a resource serialises")
    };
    assert!(written(TokenMemory::Volatile).contains(r#""token_memory":"volatile""#));
    assert!(!written(TokenMemory::Durable).contains("token_memory"));
}
