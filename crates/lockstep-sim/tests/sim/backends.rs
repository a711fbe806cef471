//! The same scenario runs against another lock service by changing one field: every catalogue
//! scenario, on every backend, either runs (and, fenced and keeping its highest token durably,
//! accepts no token below one it accepted) or is refused with a message naming the field that no longer fits (an intervention or a
//! network link naming a node the other backend does not have, or a fencing mode it cannot
//! serve).

use crate::support::accepted_tokens_in_order;
use lockstep_sim::models::resource::{Fencing, TokenMemory};
use lockstep_sim::scenario::types::LockServiceSpec;
use lockstep_sim::scenario::types::ResourceSpec;
use lockstep_sim::story::export::trace_text;
use lockstep_sim::{Sim, scenario::catalogue};

pub const BACKENDS: [&str; 6] = [
    r#"{"kind":"sql_row"}"#,
    r#"{"kind":"cache","tokens":"counter"}"#,
    r#"{"kind":"replicated_cache","tokens":"counter","replication_lag_ms":100,"failover_after_ms":500}"#,
    r#"{"kind":"data_grid"}"#,
    r#"{"kind":"consensus"}"#,
    r#"{"kind":"redlock"}"#,
];

#[test]
fn every_scenario_runs_on_every_backend_or_names_what_does_not_fit() {
    for backend in BACKENDS {
        let spec: LockServiceSpec = serde_json::from_str(backend).expect("a backend with defaults");
        let mut ran = 0;
        for built_in in catalogue::BUILT_IN {
            let mut scenario = built_in.load().expect("built-ins parse");
            scenario.lock_service = spec.clone();
            match Sim::new(&scenario) {
                Ok(mut sim) => {
                    sim.run_to_end();
                    ran += 1;
                    // A resource that keeps its highest token in memory only is meant to let a
                    // lower token in after a restart (S2's variant that shows it).
                    let durable = !matches!(
                        scenario.resource,
                        ResourceSpec::Register {
                            token_memory: TokenMemory::Volatile,
                            ..
                        }
                    );
                    if durable
                        && matches!(
                            scenario.resource.fencing(),
                            Some(Fencing::On | Fencing::Sequencer)
                        )
                        && let Err(why) = accepted_tokens_in_order(&sim)
                    {
                        panic!(
                            "{} on {backend}: fenced, yet {why}\n{}",
                            built_in.id,
                            trace_text(&sim)
                        );
                    }
                }
                Err(error) => {
                    let message = error.to_string();
                    assert!(
                        ["interventions[", "network.links[", "resource.fencing"]
                            .iter()
                            .any(|field| message.contains(field)),
                        "{} on {backend}: unexpected refusal: {message}",
                        built_in.id
                    );
                }
            }
        }
        assert!(
            ran * 2 > catalogue::BUILT_IN.len(),
            "{backend}: only {ran} scenarios ran"
        );
    }
}
