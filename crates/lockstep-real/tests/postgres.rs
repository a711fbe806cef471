//! The reality check on PostgreSQL: S2 and S1 (a GC pause past the lease, with and without
//! fencing) and S3 (the fencing gap) run against a real server, started here on loopback and stopped after, with the
//! article's lock table and acquire statement; what the real clients saw must be what the
//! simulation says happens: the same writes accepted and refused, with the same tokens, and the
//! same final value.

use lockstep_real::outcome::{OutcomeClass, Write};
use lockstep_real::plan::Plan;
use lockstep_real::postgres::{PostgresServer, run};
use lockstep_sim::Scenario;
use lockstep_sim::scenario::catalogue;
use std::net::TcpStream;

fn scenario(id: &str) -> Scenario {
    catalogue::find(id)
        .and_then(|b| b.load().ok())
        .unwrap_or_else(|| panic!("{id} is built in"))
}

fn write(client: &str, token: u64, accepted: bool) -> Write {
    Write {
        client: client.to_owned(),
        token,
        accepted,
    }
}

/// The real run's outcome class, and the simulation's, of `id`.
fn real_and_simulated(server: &PostgresServer, id: &str) -> (OutcomeClass, OutcomeClass) {
    let scenario = scenario(id);
    let plan = Plan::of(&scenario).unwrap_or_else(|e| panic!("{id}: {e}"));
    let observed = run(server, &plan).unwrap_or_else(|e| panic!("{id}: {e}"));
    let simulated = OutcomeClass::of_sim(&scenario).expect("the scenario runs");
    (OutcomeClass::of_observed(&observed), simulated)
}

#[test]
fn postgresql_itself_refuses_the_paused_clients_token_33_as_the_simulation_does() {
    let server = PostgresServer::start().unwrap_or_else(|e| panic!("{e}"));
    let (real, simulated) = real_and_simulated(&server, "s2-gc-pause-fenced");
    let expected = OutcomeClass {
        writes: vec![write("client-b", 34, true), write("client-a", 33, false)],
        final_value: 1,
    };
    assert_eq!(real, expected, "{} saw: {real}", server.version);
    assert_eq!(simulated, expected, "the simulation: {simulated}");

    // Without fencing PostgreSQL applies the stale write: client-b's increment is lost.
    let (real, simulated) = real_and_simulated(&server, "s1-gc-pause-unfenced");
    let expected = OutcomeClass {
        writes: vec![write("client-b", 34, true), write("client-a", 33, true)],
        final_value: 1,
    };
    assert_eq!(real, expected, "{} saw: {real}", server.version);
    assert_eq!(simulated, expected, "the simulation: {simulated}");

    // The fencing gap: with fencing on, the stale write lands before the new holder's first
    // write, and PostgreSQL accepts it as the simulation says.
    let (real, simulated) = real_and_simulated(&server, "s3-fencing-gap");
    let expected = OutcomeClass {
        writes: vec![write("client-a", 33, true), write("client-b", 34, true)],
        final_value: 1,
    };
    assert_eq!(real, expected, "{} saw: {real}", server.version);
    assert_eq!(simulated, expected, "the simulation: {simulated}");

    let port = server.port();
    drop(server);
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_err(),
        "nothing is left listening on {port}"
    );
}

#[test]
fn a_scenario_this_runner_cannot_make_for_real_is_refused_with_why() {
    for (id, why) in [
        ("s10-redlock-clock-jump", "SQL row only"),
        ("s8-held-safely-corrected", "renews its lease"),
        ("s4-delayed-packet", "loses messages or sets links apart"),
        ("s2-gc-pause-fenced-resource-restarts", "Crash"),
    ] {
        let refused = Plan::of(&scenario(id)).expect_err(id);
        assert!(refused.to_string().contains(why), "{id}: {refused}");
    }
}
