//! A write its client never saw answered, which the resource's own log says it applied
//! (`applied_ms`): S4's delayed packet from a client that crashed after sending it. The judge
//! counts it from when it was applied, so the stale write is seen; without the log it is not
//! (a write sent before the higher token existed is not surely stale). A crashed client
//! believes nothing. Malformed `applied_ms` fields are named where they are wrong.

use lockstep_sim::analysis::recorded_verdicts::{Ended, beliefs, broken, judge};
use lockstep_sim::story::recorded::RecordedHistory;
use lockstep_sim::vocabulary::invariant::{Invariant, InvariantSet};

const EXAMPLE: &str = include_str!("../../../../docs/examples/history-delayed-write.json");
const APPLIED: &str = r#", "applied_ms": 1606"#;

#[test]
fn a_write_applied_after_a_higher_token_was_told_is_stale() {
    let history = RecordedHistory::parse(EXAMPLE).expect("the documented example reads");
    assert_eq!(
        broken(&judge(&history)),
        InvariantSet::EMPTY.with(Invariant::NoStaleWrite)
    );
    let stale = judge(&history)
        .into_iter()
        .find(|b| b.invariant == Invariant::NoStaleWrite)
        .expect("a stale write");
    assert_eq!((stale.at_ms, stale.operation), (1606, 1));
    let written = serde_json::to_string(&history.to_file()).expect("serialises");
    assert!(written.contains("\"applied_ms\":1606"), "{written}");
    assert_eq!(RecordedHistory::parse(&written), Ok(history));
}

#[test]
fn without_the_resources_log_the_unanswered_write_counts_for_nothing() {
    let unlogged = RecordedHistory::parse(&EXAMPLE.replacen(APPLIED, "", 1)).expect("reads");
    assert_eq!(broken(&judge(&unlogged)), InvariantSet::EMPTY);
}

#[test]
fn a_crashed_client_believes_nothing() {
    let history = RecordedHistory::parse(EXAMPLE).expect("reads");
    let believed: Vec<(&str, u64, Option<u64>, Ended)> = beliefs(&history)
        .iter()
        .map(|b| (b.client, b.from_ms, b.to_ms, b.ended))
        .collect();
    assert_eq!(
        believed,
        [
            ("client-a", 3, Some(120), Ended::Crashed),
            ("client-b", 1103, Some(1208), Ended::Released),
        ]
    );
    let alive = RecordedHistory::parse(&EXAMPLE.replacen(
        r#"{ "at_ms": 120, "node": "client-a", "fault": "crash" }"#,
        r#"{ "at_ms": 120, "node": "client-a", "fault": "pause", "for_ms": 10 }"#,
        1,
    ))
    .expect("reads");
    assert!(
        broken(&judge(&alive)).contains(Invariant::OneBeliever),
        "a client that only paused still believes it holds the lock when client-b is granted it"
    );
}

#[test]
fn applied_ms_that_does_not_hold_together_says_where() {
    let write_b = r#""token": 34, "value": 34, "accepted": true"#;
    for (from, to, said) in [
        (
            APPLIED,
            r#", "applied_ms": 50"#,
            "operations[1].applied_ms: 50 is before the write was sent (104)",
        ),
        (
            write_b,
            r#""token": 34, "value": 34, "accepted": true, "applied_ms": 1300"#,
            "operations[3].applied_ms: 1300 is after the write was answered (1207)",
        ),
        (
            write_b,
            r#""token": 34, "value": 34, "accepted": false, "applied_ms": 1205"#,
            "operations[3].applied_ms: a write the resource refused was not applied",
        ),
        (
            r#""op": "release", "at_ms": 1208, "answered_ms": 1210, "released": true"#,
            r#""op": "release", "at_ms": 1208, "answered_ms": 1210, "released": true, "applied_ms": 1209"#,
            "operations[4].applied_ms: a release has no \"applied_ms\"",
        ),
    ] {
        assert!(EXAMPLE.contains(from), "the example has {from}");
        let refused = RecordedHistory::parse(&EXAMPLE.replacen(from, to, 1))
            .expect_err(to)
            .to_string();
        assert!(refused.contains(said), "{to}: {refused}");
    }
}
