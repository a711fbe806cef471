//! The hunt over the consensus service's own faults: the searches that try to break what a
//! consensus lock service promises (one live lease, increasing tokens) and what fencing adds on
//! top (one writer per token, no stale write), on 3 and 5 replicas, with leader and follower
//! pauses, one-way and two-way partitions between replicas, and a replica crash.
//!
//! It only builds configurations: the CLI's `hunt` runs them and reports, the tests run a small
//! one.

use super::config::{Bounds, FaultBudget, SearchConfig, ServiceFaults};
use crate::scenario::error::ScenarioError;
use crate::scenario::types::Scenario;
use crate::vocabulary::invariant::Invariant;
use crate::world::time::Millis;

/// What the hunt tries to break.
pub const HUNTED: [Invariant; 4] = [
    Invariant::OneLease,
    Invariant::TokensIncrease,
    Invariant::OneWriterPerToken,
    Invariant::NoStaleWrite,
];

/// Two clients contend for a consensus lock of `replicas` replicas, fenced: client-a takes it,
/// renews while it works and releases it; client-b asks while it is held and waits its turn.
/// Latencies are drawn from 1–20 ms with `seed`: a soak round hunts on other draws.
pub fn base(replicas: u8, seed: u64) -> Result<Scenario, ScenarioError> {
    let json = format!(
        r#"{{"format":2,"id":"hunt-consensus-{replicas}","title":"Consensus hunt, {replicas} replicas",
        "seed":{seed},"end_ms":3000,
        "lock_service":{{"kind":"consensus","replicas":{replicas},"heartbeat_ms":100,
          "election_timeout_ms":300}},
        "resource":{{"kind":"register","fencing":"on"}},
        "network":{{"latency_ms":[1,20]}},
        "clients":[
          {{"name":"client-a","start_ms":0,"ttl_ms":600,"work_ms":500,
            "access":{{"kind":"blind_write","value":1}},
            "renewal":{{"kind":"every","max_renewals":3}},
            "timeout":{{"kind":"after","ms":400}},
            "retry":{{"kind":"fixed","delay_ms":200,"attempts":3}}}},
          {{"name":"client-b","start_ms":200,"ttl_ms":600,"work_ms":300,
            "access":{{"kind":"blind_write","value":2}},
            "renewal":{{"kind":"every","max_renewals":3}},
            "timeout":{{"kind":"after","ms":400}},
            "retry":{{"kind":"fixed","delay_ms":200,"attempts":3}}}}]}}"#
    );
    Scenario::parse(&json)
}

/// How far one hunt looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    pub max_faults: u8,
    pub max_events: u32,
}

/// The search for `invariant` on `replicas` replicas (the base drawn with `seed`), with the
/// service's own faults, each lasting longer than an election timeout and a lease.
pub fn config(
    replicas: u8,
    invariant: Invariant,
    seed: u64,
    reach: Reach,
) -> Result<SearchConfig, ScenarioError> {
    let long = Millis(900);
    let Reach {
        max_faults,
        max_events,
    } = reach;
    Ok(SearchConfig {
        base: base(replicas, seed)?,
        invariant,
        faults: FaultBudget {
            max: max_faults,
            service: ServiceFaults {
                pauses: vec![long],
                partitions: vec![long],
                crashes: vec![long],
            },
            ..FaultBudget::default()
        },
        bounds: Bounds {
            step_ms: Millis(100),
            max_events,
        },
    })
}
