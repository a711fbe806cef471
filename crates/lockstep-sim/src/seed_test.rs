//! The scenario behind the seed article's first two verification tests, shared by the native
//! tests and the in-page test runner: two clients on one lock, the first paused past its lease.
//! It must not decide what passes; the tests judge its trace.

use crate::scenario::{Scenario, ScenarioError};

/// The lease both clients ask for.
pub const TTL_MS: u64 = 1_000;

/// Two clients on one lock. `client-a` starts at once and, 20 ms in, is paused for twice the
/// TTL; `client-b` starts at 1,500 ms, after `a`'s lease has run out, and works for `b_work_ms`.
/// `service` is the `lock_service` object as JSON; `a_extra` adds fields to `client-a` (for
/// example `, "release": "plain_delete"`).
pub fn two_clients(
    service: &str,
    a_extra: &str,
    b_work_ms: u64,
) -> Result<Scenario, ScenarioError> {
    let json = format!(
        r#"{{
        "format": 1, "id": "seed-test", "title": "The seed's verification test", "seed": 7,
        "end_ms": 10000,
        "lock_service": {service},
        "resource": {{ "kind": "register", "fencing": "on" }},
        "network": {{ "latency_ms": [1, 5] }},
        "clients": [
          {{ "name": "client-a", "start_ms": 0, "ttl_ms": {TTL_MS}, "work_ms": 100,
             "access": {{ "kind": "read_modify_write" }} {a_extra} }},
          {{ "name": "client-b", "start_ms": 1500, "ttl_ms": {TTL_MS}, "work_ms": {b_work_ms},
             "access": {{ "kind": "read_modify_write" }} }}
        ],
        "interventions": [
          {{ "at_ms": 20, "do": {{ "action": "pause", "node": "client-a", "for_ms": {pause} }} }}
        ]
      }}"#,
        pause = 2 * TTL_MS,
    );
    Scenario::parse(&json)
}
