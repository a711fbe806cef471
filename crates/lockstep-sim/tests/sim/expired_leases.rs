//! Expired means gone, on every backend: a renewal (a keepalive) that reaches the lock service
//! after the lease ran out is refused, even when nobody has taken the lock since (etcd answers
//! such a keepalive "lease not found"; a Redis key past its TTL no longer exists).

use crate::support::{built_in, run, run_json};
use lockstep_sim::Sim;
use lockstep_sim::scenario::types::LockServiceSpec;
use lockstep_sim::story::export::trace_text;
use lockstep_sim::vocabulary::happening::Happening;
use lockstep_sim::world::ids::NodeId;
use lockstep_sim::world::intervention::{Action, Intervention};
use lockstep_sim::world::time::VirtualTime;

/// The one client's renewals are cut from 50 ms to 450 ms; its 300 ms lease runs out at about
/// 310 ms, and its first renewal after the heal arrives at about 510 ms.
fn late_renewal(lock_service: &str) -> Sim {
    let spec: LockServiceSpec = serde_json::from_str(lock_service).expect("a backend");
    let cuts: Vec<String> = spec
        .node_names()
        .iter()
        .flat_map(|node| {
            [
                format!(
                    r#"{{"at_ms":50,"do":{{"action":"partition","from":"client-a","to":"{node}","direction":"one_way"}}}}"#
                ),
                format!(
                    r#"{{"at_ms":450,"do":{{"action":"heal","a":"client-a","b":"{node}"}}}}"#
                ),
            ]
        })
        .collect();
    run_json(&format!(
        r#"{{"format":1,"id":"t","title":"t","seed":7,"end_ms":1500,
          "lock_service":{lock_service},
          "resource":{{"kind":"register","fencing":"on"}},
          "network":{{"latency_ms":[2,8]}},
          "clients":[{{"name":"client-a","start_ms":0,"ttl_ms":300,"work_ms":1000,
                      "access":{{"kind":"blind_write","value":1}},
                      "renewal":{{"kind":"every","max_renewals":20}}}}],
          "interventions":[{}]}}"#,
        cuts.join(",")
    ))
}

/// A `Renewed` for a client after its lease expired, with no new grant to it in between.
fn renewed_after_expiry(sim: &Sim) -> Option<String> {
    let mut expired: Vec<NodeId> = Vec::new();
    for event in sim.trace() {
        match event.happening {
            Happening::LeaseExpired { holder, .. } => expired.push(holder),
            Happening::Granted { client, .. } => expired.retain(|&c| c != client),
            Happening::Renewed { client, .. } if expired.contains(&client) => {
                return Some(format!("event {}: {:?}", event.id, event.happening));
            }
            _ => {}
        }
    }
    None
}

fn refused_late_renewal(lock_service: &str) {
    let sim = late_renewal(lock_service);
    assert_eq!(renewed_after_expiry(&sim), None, "{}", trace_text(&sim));
    assert!(
        sim.trace()
            .iter()
            .any(|e| e.time.0 > 450 && matches!(e.happening, Happening::RenewRefused { .. })),
        "the late renewal is answered, and refused\n{}",
        trace_text(&sim)
    );
}

#[test]
fn a_sql_row_refuses_to_renew_an_expired_lease() {
    refused_late_renewal(r#"{"kind":"sql_row"}"#);
}

#[test]
fn a_cache_refuses_to_renew_an_expired_key() {
    refused_late_renewal(r#"{"kind":"cache","tokens":"counter"}"#);
}

#[test]
fn a_replicated_cache_refuses_to_renew_an_expired_key() {
    refused_late_renewal(
        r#"{"kind":"replicated_cache","tokens":"counter","replication_lag_ms":100,"failover_after_ms":500}"#,
    );
}

#[test]
fn a_data_grid_refuses_to_renew_an_expired_key() {
    refused_late_renewal(r#"{"kind":"data_grid"}"#);
}

#[test]
fn a_consensus_leader_refuses_a_keepalive_for_an_expired_lease() {
    refused_late_renewal(r#"{"kind":"consensus"}"#);
}

/// S14 with client-a's links healed at 1018 ms, one millisecond after its lease expired and
/// before the leader's "expire" entry has committed: its next keepalive must still be refused.
#[test]
fn a_keepalive_between_expiry_and_its_commit_is_refused() {
    let mut scenario = built_in("s14-consensus-client-partitioned");
    for replica in ["etcd-1", "etcd-2", "etcd-3"] {
        scenario.interventions.push(Intervention {
            at_ms: VirtualTime(1_018),
            action: Action::Heal {
                a: "client-a".to_owned(),
                b: replica.to_owned(),
            },
        });
    }
    let sim = run(&scenario);
    assert_eq!(renewed_after_expiry(&sim), None, "{}", trace_text(&sim));
}
