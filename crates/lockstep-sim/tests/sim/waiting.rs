//! What a client sends while it waits for the lock: only a consensus session is kept alive
//! (etcd's keepalive runs beside `Lock`); a SQL row or a cache has no session to keep.

use crate::support::run_json;
use lockstep_sim::happening::Happening;

fn renewal_answers(lock_service: &str) -> usize {
    // The grant reaches client-b 700 ms late, long after its renewal interval.
    let json = format!(
        r#"{{"format":1,"id":"t","title":"t","seed":1,"end_ms":3000,
          "lock_service":{lock_service},
          "resource":{{"kind":"register","fencing":"on"}},
          "network":{{"latency_ms":[2,8],
                     "links":[{{"from":"lock-service","to":"client-b","latency_ms":[700,700]}}]}},
          "clients":[{{"name":"client-b","start_ms":0,"ttl_ms":300,"work_ms":100,
                      "access":{{"kind":"blind_write","value":2}},
                      "renewal":{{"kind":"every","max_renewals":3}}}}]}}"#
    );
    run_json(&json)
        .trace()
        .iter()
        .filter(|e| {
            matches!(
                e.happening,
                Happening::Renewed { .. } | Happening::RenewRefused { .. }
            )
        })
        .filter(|e| e.time.0 < 700)
        .count()
}

#[test]
fn a_sql_row_client_sends_no_keepalive_while_it_waits() {
    assert_eq!(renewal_answers(r#"{"kind":"sql_row"}"#), 0);
}
