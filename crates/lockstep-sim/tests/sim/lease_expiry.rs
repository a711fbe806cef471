//! The lock service announces each lease's expiry once: not again after a restart or a clock
//! jump, nor after a late renewal (which is refused: an expired lease is gone).

use crate::support::run_json;
use lockstep_sim::vocabulary::happening::Happening;

fn expiries(json: &str) -> usize {
    run_json(json)
        .trace()
        .iter()
        .filter(|e| matches!(e.happening, Happening::LeaseExpired { .. }))
        .count()
}

#[test]
fn a_restart_after_the_expiry_does_not_announce_it_again() {
    let json = r#"{"format":1,"id":"t","title":"t","seed":1,"end_ms":2000,
      "lock_service":{"kind":"sql_row"},
      "resource":{"kind":"register","fencing":"on"},
      "network":{"latency_ms":[2,8]},
      "clients":[{"name":"client-a","start_ms":0,"ttl_ms":100,"work_ms":1000,
                  "access":{"kind":"blind_write","value":1}}],
      "interventions":[{"at_ms":500,"do":{"action":"clock_jump","node":"lock-service","by_ms":10}},
                       {"at_ms":600,"do":{"action":"crash","node":"lock-service"}},
                       {"at_ms":700,"do":{"action":"restart","node":"lock-service"}}]}"#;
    assert_eq!(expiries(json), 1);
}

#[test]
fn a_renewal_after_the_expiry_is_refused_and_the_expiry_announced_once() {
    // client-b's grant reaches it 700 ms late, after its lease expired; nobody took the lock in
    // between, yet its renewal is refused: an expired lease is gone.
    let json = r#"{"format":1,"id":"t","title":"t","seed":1,"end_ms":4000,
      "lock_service":{"kind":"sql_row"},
      "resource":{"kind":"register","fencing":"on"},
      "network":{"latency_ms":[2,8],
                 "links":[{"from":"lock-service","to":"client-b","latency_ms":[700,700]}]},
      "clients":[{"name":"client-b","start_ms":0,"ttl_ms":300,"work_ms":2000,
                  "access":{"kind":"blind_write","value":2},
                  "renewal":{"kind":"every","max_renewals":1}}]}"#;
    assert_eq!(expiries(json), 1);
    assert!(
        run_json(json)
            .trace()
            .iter()
            .any(|e| matches!(e.happening, Happening::RenewRefused { .. }))
    );
}
