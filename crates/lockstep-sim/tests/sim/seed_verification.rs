//! The seed article's three verification tests, as tests of the simulation.

use crate::support::run;
use lockstep_sim::chaos::Chaos;
use lockstep_sim::happening::Happening;
use lockstep_sim::invariant::Invariant;
use lockstep_sim::message::Refusal;
use lockstep_sim::resource::Fencing;
use lockstep_sim::seed_test;
use lockstep_sim::sim::Node;
use lockstep_sim::{Scenario, Sim};

/// The seed's two-client scenario (see `lockstep_sim::seed_test`).
fn two_clients(service: &str, a_extra: &str, b_work: u64) -> Scenario {
    seed_test::two_clients(service, a_extra, b_work).unwrap_or_else(|e| panic!("{e}"))
}

fn granted_token(sim: &Sim, client: &str) -> u64 {
    let node = sim.cast().find(client).expect("client exists");
    sim.trace()
        .iter()
        .find_map(|e| match e.happening {
            Happening::Granted {
                client,
                token: Some(token),
                ..
            } if client == node => Some(token.0),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{client} was never granted the lock\n{}", sim.render_text()))
}

#[test]
fn rejects_work_from_a_client_that_paused_past_expiry() {
    let sim = run(&two_clients(r#"{ "kind": "sql_row" }"#, "", 100));
    let stale = granted_token(&sim, "client-a");
    assert!(granted_token(&sim, "client-b") > stale);
    let a = sim.cast().find("client-a").expect("client-a");
    let rejected = sim.trace().iter().any(|e| {
        matches!(e.happening, Happening::WriteRejected { writer, refusal: Refusal::StaleToken { presented, .. } }
            if writer == a && presented.0 == stale)
    });
    assert!(
        rejected,
        "client-a's stale write must be rejected\n{}",
        sim.render_text()
    );
}

/// Steps until client-a's release has been handled and returns who holds the lock then.
fn holder_after_stale_release(scenario: &Scenario) -> (Option<String>, Sim) {
    let mut sim = Sim::new(scenario).expect("valid");
    let a = sim.cast().find("client-a").expect("client-a");
    while let Some(event) = sim.step() {
        let handled_release = matches!(
            event.happening,
            Happening::Released { client, .. }
            | Happening::ReleaseRefused { client, .. }
            | Happening::ReleasedOthersLock { client, .. } if client == a
        );
        if handled_release {
            let slot = sim.slot(sim.cast().lock_service()).expect("service");
            let Node::LockService(service) = &slot.node else {
                panic!("node 0 is the lock service")
            };
            let holder = service
                .live_lease(slot.clock.read(sim.now()))
                .map(|(h, _)| sim.cast().name(h).to_owned());
            return (holder, sim);
        }
    }
    panic!("client-a never released\n{}", sim.render_text());
}

#[test]
fn does_not_release_a_lock_held_by_another_client() {
    // client-a "sleeps" past its TTL (a pause of twice the TTL), client-b takes the lock, then
    // client-a's finally block releases.
    for service in [
        r#"{ "kind": "sql_row" }"#,
        r#"{ "kind": "cache", "tokens": "counter" }"#,
    ] {
        let (holder, sim) = holder_after_stale_release(&two_clients(service, "", 2_000));
        assert_eq!(
            holder.as_deref(),
            Some("client-b"),
            "{service}\n{}",
            sim.render_text()
        );
    }
}

#[test]
fn the_release_test_catches_a_plain_del() {
    let plain_del = r#", "release": "plain_delete""#;
    let scenario = two_clients(
        r#"{ "kind": "cache", "tokens": "counter" }"#,
        plain_del,
        2_000,
    );
    let (holder, sim) = holder_after_stale_release(&scenario);
    assert_eq!(
        holder,
        None,
        "plain DEL frees client-b's lock\n{}",
        sim.render_text()
    );
}

#[test]
fn maintains_at_most_one_accepted_writer_under_chaos() {
    for seed in 1..=3 {
        let sim = run(&Chaos::seed_test(seed, Fencing::On).scenario());
        let writes = sim
            .trace()
            .iter()
            .filter(|e| matches!(e.happening, Happening::WriteAccepted { .. }))
            .count();
        assert!(
            writes > 100,
            "seed {seed}: the chaos run must do real work ({writes} writes)"
        );
        let last = sim.trace().last().expect("events");
        for invariant in [Invariant::NoStaleWrite, Invariant::OneWriterPerToken] {
            assert!(
                !last.violated.contains(invariant),
                "seed {seed}: {invariant}"
            );
        }
        assert!(
            sim.trace()
                .iter()
                .any(|e| e.violated.contains(Invariant::OneBeliever)),
            "seed {seed}: the chaos must be real: at some point two clients believe they hold the lock"
        );
    }
}

#[test]
fn without_fencing_the_chaos_test_catches_stale_writes() {
    let caught = (1..=3).any(|seed| {
        let sim = run(&Chaos::seed_test(seed, Fencing::Off).scenario());
        sim.trace()
            .last()
            .is_some_and(|e| e.violated.contains(Invariant::NoStaleWrite))
    });
    assert!(
        caught,
        "with fencing off, chaos must let a stale write through"
    );
}

#[test]
fn a_consensus_service_keeps_one_lease_and_increasing_tokens_under_chaos() {
    use lockstep_sim::chaos::ChaosBackend;
    for seed in 1..=2 {
        let chaos = Chaos::seed_test(seed, Fencing::On).with_backend(ChaosBackend::Consensus);
        let sim = run(&chaos.scenario());
        let grants = sim
            .trace()
            .iter()
            .filter(|e| matches!(e.happening, Happening::Granted { .. }))
            .count();
        assert!(
            grants > 50,
            "seed {seed}: the chaos must grant often ({grants} grants)"
        );
        for invariant in [
            Invariant::OneLease,
            Invariant::TokensIncrease,
            Invariant::NoStaleWrite,
        ] {
            assert!(
                !sim.trace().iter().any(|e| e.violated.contains(invariant)),
                "seed {seed}: {invariant}"
            );
        }
    }
}
