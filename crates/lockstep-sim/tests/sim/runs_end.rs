//! No input loops forever: timers have a floor of 1 ms, so virtual time always moves on, and a
//! run of a valid scenario ends.

use crate::backends::BACKENDS;
use lockstep_sim::{Scenario, Sim};

/// Runs `json` and fails if it has not ended after `most` events (a loop at one virtual
/// millisecond would never end, and would fill memory first).
fn ends_within(json: &str, most: usize) {
    let scenario = Scenario::parse(json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    let mut sim = Sim::new(&scenario).expect("valid");
    let mut events = 0;
    while sim.step().is_some() {
        events += 1;
        assert!(
            events <= most,
            "still running at t={} ms after {events} events:\n{json}",
            sim.now().0
        );
    }
}

/// client-b holds the lock from t = 0 for 300 ms of work; client-a, from t = 5, is `client`.
fn two_clients(lock_service: &str, latency: &str, client: &str) -> String {
    format!(
        r#"{{"format":1,"id":"x","title":"x","seed":3,"end_ms":1000,
 "lock_service":{lock_service},
 "resource":{{"kind":"register","fencing":"off"}},
 "network":{{"latency_ms":{latency}}},
 "clients":[{{"name":"client-b","start_ms":0,"ttl_ms":400,"work_ms":300,
             "access":{{"kind":"read_modify_write"}}}},
            {{"name":"client-a","start_ms":5,"access":{{"kind":"read_modify_write"}},{client}}}]}}"#
    )
}

#[test]
fn a_renewal_every_ttl_over_three_ends_when_the_ttl_is_one_or_two_ms_on_every_backend() {
    for backend in BACKENDS {
        for ttl in [1, 2] {
            let client = format!(
                r#""ttl_ms":{ttl},"work_ms":50,"renewal":{{"kind":"every","max_renewals":4294967295}}"#
            );
            ends_within(&two_clients(backend, "[1,2]", &client), 50_000);
        }
    }
}

#[test]
fn zero_delays_over_a_network_without_latency_still_end() {
    for backend in BACKENDS {
        for client in [
            r#""ttl_ms":10,"work_ms":0,"retry":{"kind":"fixed","delay_ms":0,"attempts":4294967295}"#,
            r#""ttl_ms":10,"work_ms":0,"retry":{"kind":"random","max_delay_ms":0,"attempts":4294967295}"#,
            r#""ttl_ms":10,"work_ms":0,"repeat":{"kind":"every","interval_ms":0}"#,
            r#""ttl_ms":10,"work_ms":0,"locking":"none","repeat":{"kind":"every","interval_ms":0}"#,
        ] {
            ends_within(&two_clients(backend, "[0,0]", client), 200_000);
        }
    }
}
