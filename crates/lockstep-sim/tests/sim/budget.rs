//! Runs have a budget: a scenario whose periodic work is over it is refused before it starts,
//! and a run that reaches it anyway stops there and says so.

use lockstep_sim::analysis::chaos::{Chaos, ChaosBackend};
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::budget::RUN_BUDGET;
use lockstep_sim::scenario::estimate::estimated_inputs;
use lockstep_sim::{Scenario, Sim};

fn scenario(end_ms: u64, lock_service: &str, client: &str) -> String {
    format!(
        r#"{{"format":1,"id":"x","title":"x","seed":1,"end_ms":{end_ms},
 "lock_service":{lock_service},
 "resource":{{"kind":"register","fencing":"on"}},
 "network":{{"latency_ms":[1,2]}},
 "clients":[{{"name":"client-a","start_ms":0,"access":{{"kind":"read_modify_write"}},{client}}}]}}"#
    )
}

#[test]
fn a_heartbeat_every_millisecond_for_a_hundred_seconds_is_refused_before_it_runs() {
    let json = scenario(
        100_000,
        r#"{"kind":"consensus","heartbeat_ms":1,"election_timeout_ms":2}"#,
        r#""ttl_ms":1000,"work_ms":50"#,
    );
    let error = Scenario::parse(&json)
        .expect_err("over the budget")
        .to_string();
    assert!(
        error.starts_with("end_ms: ") && error.contains(&format!("budget of {RUN_BUDGET}")),
        "{error}"
    );
}

#[test]
fn an_hour_of_redlock_with_eight_clients_is_refused_before_it_runs() {
    let clients: Vec<String> = (0..8)
        .map(|i| {
            format!(
                r#"{{"name":"client-{i}","start_ms":{i},"ttl_ms":1000,"work_ms":300,
                 "access":{{"kind":"read_modify_write"}},
                 "retry":{{"kind":"random","max_delay_ms":501,"attempts":1000}},
                 "repeat":{{"kind":"every","interval_ms":300}}}}"#
            )
        })
        .collect();
    let json = format!(
        r#"{{"format":1,"id":"x","title":"x","seed":1,"end_ms":3600000,
 "lock_service":{{"kind":"redlock"}},
 "resource":{{"kind":"register","fencing":"off"}},
 "network":{{"latency_ms":[2,8]}},
 "clients":[{}]}}"#,
        clients.join(",")
    );
    let error = Scenario::parse(&json)
        .expect_err("over the budget")
        .to_string();
    assert!(error.contains("budget"), "{error}");
}

/// Renewals every millisecond for an hour: nothing in the estimate, so the run starts, and the
/// engine stops it at the budget instead of filling memory.
#[test]
fn a_run_that_reaches_the_budget_stops_there_and_says_so() {
    let json = scenario(
        3_600_000,
        r#"{"kind":"sql_row"}"#,
        r#""ttl_ms":3,"work_ms":3600000,"renewal":{"kind":"every","max_renewals":4294967295}"#,
    );
    let scenario = Scenario::parse(&json).expect("under the estimate");
    let mut sim = Sim::new(&scenario).expect("valid");
    sim.run_to_end();
    let spent = sim.stopped_by_budget().expect("the budget stopped it");
    assert_eq!(sim.inputs_handled(), RUN_BUDGET);
    assert!(sim.is_finished() && sim.step().is_none());
    assert!(spent.at.0 < 3_600_000);
    let message = spent.to_string();
    assert!(
        message.contains("stopped at") && message.contains(&format!("budget of {RUN_BUDGET}")),
        "{message}"
    );
}

#[test]
fn the_seed_chaos_test_fits_the_budget_on_every_backend() {
    for backend in [
        ChaosBackend::SqlRow,
        ChaosBackend::Redlock,
        ChaosBackend::Consensus,
    ] {
        let scenario = Chaos::verification_test(1, Fencing::On)
            .with_backend(backend)
            .scenario();
        assert!(estimated_inputs(&scenario) <= RUN_BUDGET, "{backend:?}");
        let mut sim = Sim::new(&scenario).expect("valid");
        sim.run_to_end();
        assert_eq!(sim.stopped_by_budget(), None, "{backend:?}");
    }
}
