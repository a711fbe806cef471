//! Valid-but-extreme numbers: a scenario whose numeric fields sit at the edges of their types
//! (0, 1, the largest and smallest values, one hour, one past it) is either refused by the
//! parser with a message naming the field, or runs to its end without a panic — in debug
//! builds, where an overflow panics.

use crate::cases::{self, Cases};
use lockstep_sim::analysis::expectation_check;
use lockstep_sim::story::export::trace_text;
use lockstep_sim::{Scenario, Sim};
use proptest::prelude::*;
use serde_json::{Value, json};

/// One base scenario per kind of lock service, each with every option that carries a number.
fn bases() -> Vec<Value> {
    let client = |name: &str, start: u64, access: Value| {
        json!({
            "name": name, "start_ms": start, "ttl_ms": 300, "work_ms": 50, "access": access,
            "retry": { "kind": "fixed", "delay_ms": 20, "attempts": 3 },
            "lease_check": { "kind": "before_write", "margin_ms": 10, "gap_ms": 5,
                             "measure": "from_last_request" },
            "renewal": { "kind": "every", "max_renewals": 2 },
            "repeat": { "kind": "every", "interval_ms": 100 },
            "timeout": { "kind": "after", "ms": 200 },
            "local_deadline": { "kind": "after", "ms": 300 }
        })
    };
    let services = [
        json!({ "kind": "sql_row", "last_token": 32 }),
        json!({ "kind": "cache", "tokens": "counter", "last_token": 5 }),
        json!({ "kind": "replicated_cache", "tokens": "counter", "last_token": 5,
                "replication_lag_ms": 30, "failover_after_ms": 200 }),
        json!({ "kind": "data_grid", "members": 3 }),
        json!({ "kind": "consensus", "replicas": 3, "heartbeat_ms": 50,
                "election_timeout_ms": 200, "lock_delay_ms": 20 }),
        json!({ "kind": "redlock", "nodes": 3, "restart_delay_ms": 10, "node_timeout_ms": 30 }),
    ];
    let resources = [
        (
            json!({ "kind": "register", "fencing": "on", "initial_value": 7 }),
            [
                json!({ "kind": "read_modify_write" }),
                json!({ "kind": "blind_write", "value": 3 }),
            ],
        ),
        (
            json!({ "kind": "inventory", "fencing": "on", "quantity": 10 }),
            [
                json!({ "kind": "decrement", "amount": 2 }),
                json!({ "kind": "decrement", "amount": 1 }),
            ],
        ),
        (
            json!({ "kind": "payments", "idempotency": "keys" }),
            [
                json!({ "kind": "charge", "key": 1, "amount": 5, "timeout_ms": 40, "attempts": 3 }),
                json!({ "kind": "charge", "key": 2, "amount": 6, "timeout_ms": 40, "attempts": 3 }),
            ],
        ),
    ];
    let mut bases = Vec::new();
    for service in &services {
        for (resource, [first, second]) in &resources {
            bases.push(json!({
                "format": 1, "id": "extreme", "title": "extreme", "seed": 5, "end_ms": 1500,
                "lock_service": service, "resource": resource,
                "network": { "latency_ms": [1, 4], "loss_per_million": 1000,
                             "links": [{ "from": "client-a", "to": "resource",
                                         "latency_ms": [2, 3], "loss_per_million": 0 }] },
                "clients": [client("client-a", 0, first.clone()), client("client-b", 10, second.clone())],
                "clocks": [{ "node": "client-a", "offset_ms": 5, "drift_ppm": 100 }],
                "interventions": [
                    { "at_ms": 30, "do": { "action": "pause", "node": "client-a", "for_ms": 400 } },
                    { "at_ms": 40, "do": { "action": "clock_jump", "node": "client-b", "by_ms": 200 } },
                    { "at_ms": 50, "do": { "action": "clock_drift", "node": "client-b", "drift_ppm": 500 } },
                    { "at_ms": 60, "do": { "action": "hold", "message": 2 } }
                ],
                "expectations": [
                    { "expect": "write", "nth": 1, "by": "client-a", "outcome": "accepted" },
                    { "expect": "final_value", "value": 8 }
                ]
            }));
        }
    }
    bases
}

/// Every number in `value`, as a JSON pointer.
fn numbers(value: &Value, at: String, found: &mut Vec<String>) {
    match value {
        Value::Number(_) => found.push(at),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                numbers(item, format!("{at}/{i}"), found);
            }
        }
        Value::Object(fields) => {
            for (key, item) in fields {
                numbers(item, format!("{at}/{key}"), found);
            }
        }
        _ => {}
    }
}

/// The edges of every integer type the format uses, and of its own ranges.
fn edge() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(0)),
        Just(json!(1)),
        Just(json!(2)),
        Just(json!(-1)),
        Just(json!(3_600_000)),
        Just(json!(3_600_001)),
        Just(json!(i64::MIN)),
        Just(json!(i64::MAX)),
        Just(json!(u64::MAX)),
        Just(json!(u64::MAX - 1)),
        Just(json!(u32::MAX)),
        Just(json!(i32::MIN)),
        Just(json!(i32::MAX)),
        Just(json!(-999_999)),
        Just(json!(255)),
        Just(json!(1_000_000_000_000i64)),
        Just(json!(-1_000_000_000_000i64)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..cases::config(Cases { test: 600, soak: 600 }, file!())
    })]

    #[test]
    fn numbers_at_their_edges_are_refused_by_name_or_run_without_panicking(
        base in 0usize..18,
        picks in proptest::collection::vec((any::<prop::sample::Index>(), edge()), 1..4),
    ) {
        let mut scenario = bases()[base].clone();
        let mut slots = Vec::new();
        numbers(&scenario, String::new(), &mut slots);
        let mut changed = Vec::new();
        for (index, value) in picks {
            let slot = index.get(&slots).clone();
            *scenario.pointer_mut(&slot).expect("a number's place") = value.clone();
            changed.push(format!("{slot} = {value}"));
        }
        match Scenario::parse(&scenario.to_string()) {
            Ok(parsed) => {
                let mut sim = Sim::new(&parsed).expect("a parsed scenario runs");
                sim.run_to_end();
                for expectation in &parsed.expectations {
                    let _ = expectation_check::check(expectation, &sim);
                }
                let _ = trace_text(&sim);
                let _ = sim.hash();
            }
            Err(error) => {
                let message = error.to_string();
                prop_assert!(
                    message.contains(": "),
                    "{changed:?}: the message names no field: {message}"
                );
            }
        }
    }
}

#[test]
fn every_base_scenario_is_valid_and_does_something() {
    for base in bases() {
        let scenario = Scenario::parse(&base.to_string())
            .unwrap_or_else(|e| panic!("{e}\n{}", base["lock_service"]));
        let mut sim = Sim::new(&scenario).expect("runs");
        sim.run_to_end();
        assert!(sim.trace().len() > 20, "{}", base["lock_service"]);
    }
}
