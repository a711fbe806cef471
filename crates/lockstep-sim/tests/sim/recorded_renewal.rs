//! Renewals in a recorded history (`op: renew`): an answered renewal sent while the lease surely
//! lived makes it last longer; one sent after it had surely ended does not; a refused renewal
//! ends the client's belief. Each shown on the documented example edited to add one renewal,
//! and a malformed renewal is named where it is wrong.

use lockstep_sim::analysis::recorded_verdicts::{Ended, beliefs, broken, judge, server_leases};
use lockstep_sim::story::recorded::RecordedHistory;
use lockstep_sim::vocabulary::invariant::Invariant;

const EXAMPLE: &str = include_str!("../../../../docs/examples/history-gc-pause.json");
const GRANT: &str = r#"{ "client": "client-1", "op": "acquire", "at_ms": 0, "answered_ms": 2, "granted": true, "token": 33, "ttl_ms": 1000 },"#;

/// The example with `renewal` (an operation's JSON) after client-1's grant.
fn with(renewal: &str) -> Result<RecordedHistory, String> {
    assert!(EXAMPLE.contains(GRANT));
    RecordedHistory::parse(&EXAMPLE.replacen(GRANT, &format!("{GRANT}\n    {renewal},"), 1))
        .map_err(|e| e.to_string())
}

fn first_lease_end(history: &RecordedHistory) -> (Option<u64>, Ended) {
    let lease = &server_leases(history)[0];
    (lease.to_ms, lease.ended)
}

#[test]
fn a_renewal_in_time_makes_the_lease_last_longer() {
    let plain = RecordedHistory::parse(EXAMPLE).expect("reads");
    assert_eq!(first_lease_end(&plain), (Some(1000), Ended::Expired));
    assert!(!broken(&judge(&plain)).contains(Invariant::OneLease));
    let renewed = with(r#"{ "client": "client-1", "op": "renew", "at_ms": 300, "answered_ms": 301, "renewed": true, "ttl_ms": 1000 }"#)
        .expect("reads");
    assert_eq!(first_lease_end(&renewed), (Some(1300), Ended::Expired));
    // client-2's grant at 1202 now meets client-1's renewed lease.
    assert!(
        broken(&judge(&renewed)).contains(Invariant::OneLease),
        "{:?}",
        judge(&renewed)
    );
}

#[test]
fn a_renewal_sent_after_the_lease_had_surely_ended_counts_for_nothing() {
    let late = with(r#"{ "client": "client-1", "op": "renew", "at_ms": 1100, "answered_ms": 1101, "renewed": true, "ttl_ms": 1000 }"#)
        .expect("reads");
    assert_eq!(first_lease_end(&late), (Some(1000), Ended::Expired));
    assert!(!broken(&judge(&late)).contains(Invariant::OneLease));
}

#[test]
fn a_refused_renewal_ends_the_belief() {
    let plain = RecordedHistory::parse(EXAMPLE).expect("reads");
    assert!(broken(&judge(&plain)).contains(Invariant::OneBeliever));
    let lost = with(r#"{ "client": "client-1", "op": "renew", "at_ms": 300, "answered_ms": 301, "renewed": false }"#)
        .expect("reads");
    let belief = &beliefs(&lost)[0];
    assert_eq!((belief.to_ms, belief.ended), (Some(301), Ended::Lost));
    assert!(
        !broken(&judge(&lost)).contains(Invariant::OneBeliever),
        "{:?}",
        judge(&lost)
    );
}

#[test]
fn a_malformed_renewal_is_named_where_it_is_wrong() {
    for (renewal, said) in [
        (
            r#"{ "client": "client-1", "op": "renew", "at_ms": 300, "answered_ms": 301 }"#,
            "operations[1].renewed: a renewal answered at 301 ms needs \"renewed\"",
        ),
        (
            r#"{ "client": "client-1", "op": "renew", "at_ms": 300, "answered_ms": 301, "renewed": true, "token": 33 }"#,
            "operations[1].token: a renewal has no \"token\"",
        ),
    ] {
        let refused = with(renewal).expect_err(renewal);
        assert!(refused.contains(said), "{refused}");
    }
}
