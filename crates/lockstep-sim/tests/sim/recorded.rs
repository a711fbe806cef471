//! Recorded histories (`story::recorded`): the documented example reads, every malformed shape
//! is refused with where and why, a history written and read back is the same, and each
//! invariant judged on a history (`analysis::recorded_verdicts`) breaks on a history built to
//! break it and holds on the fenced example.

use lockstep_sim::analysis::recorded_verdicts::{Breach, broken, judge};
use lockstep_sim::story::recorded::{Acquired, HistoryError, RecordedHistory, Request, Written};
use lockstep_sim::vocabulary::invariant::Invariant;

const EXAMPLE: &str = include_str!("../../../../docs/examples/history-gc-pause.json");

fn example() -> RecordedHistory {
    RecordedHistory::parse(EXAMPLE).expect("the documented example reads")
}

/// The example with `edit` applied to its JSON text.
fn edited(from: &str, to: &str) -> Result<RecordedHistory, HistoryError> {
    assert!(EXAMPLE.contains(from), "the example has {from}");
    RecordedHistory::parse(&EXAMPLE.replacen(from, to, 1))
}

fn error(from: &str, to: &str) -> String {
    edited(from, to).expect_err("refused").to_string()
}

#[test]
fn the_documented_example_reads_as_written() {
    let history = example();
    assert_eq!(history.operations.len(), 9);
    assert_eq!(history.clients(), ["client-1", "client-2"]);
    assert_eq!(history.end_ms(), 1504);
    assert_eq!(
        history.operations[0].request,
        Request::Acquire(Some(Acquired::Granted {
            token: Some(33),
            ttl_ms: Some(1000)
        }))
    );
    assert_eq!(
        history.operations.last().map(|o| o.request),
        Some(Request::Release(Some(false)))
    );
    let written = serde_json::to_string(&history.to_file()).expect("serialises");
    assert_eq!(RecordedHistory::parse(&written), Ok(history));
}

#[test]
fn malformed_histories_say_what_and_where() {
    for (from, to, said) in [
        (
            "\"history\": 1",
            "\"history\": 2",
            "recorded-history format 2",
        ),
        (
            "\"fencing\": \"on\"",
            "\"fencing\": \"sometimes\"",
            "fencing",
        ),
        (
            "\"granted\": false }",
            "\"granted\": false, \"value\": 3 }",
            "operations[2].value: an acquire has no \"value\"",
        ),
        (
            "\"answered_ms\": 4, \"value\": 0",
            "\"answered_ms\": 4",
            "operations[1].value: a read answered at 4 ms needs \"value\"",
        ),
        (
            "\"at_ms\": 1500, \"answered_ms\": 1502,",
            "\"at_ms\": 1500,",
            "operations[7].accepted: is an answer, and the request has no \"answered_ms\"",
        ),
        (
            "\"at_ms\": 1300, \"answered_ms\": 1302",
            "\"at_ms\": 1300, \"answered_ms\": 1299",
            "operations[5].answered_ms: 1299 is before the request was sent (1300)",
        ),
        (
            "\"client\": \"client-2\", \"op\": \"read\"",
            "\"client\": \"register\", \"op\": \"read\"",
            "operations[4].client: \"register\" is the lock service's or the resource's name",
        ),
        (
            "\"token\": 34, \"value\": 1,",
            "\"token\": 34,",
            "operations[5].value: a write needs the value it wrote",
        ),
        (
            "\"for_ms\": 1400",
            "\"by_ms\": 1400",
            "faults[0].for_ms: a pause needs its length",
        ),
        ("\"op\": \"read\"", "\"op\": \"peek\"", "operations[1].op"),
        ("\"operations\": [", "\"operation\": [", "operation"),
    ] {
        let message = error(from, to);
        assert!(
            message.contains(said),
            "{to}: said {message:?}, not {said:?}"
        );
    }
    let empty = EXAMPLE[..EXAMPLE.find("\"operations\"").expect("has operations")].to_owned()
        + "\"operations\": [] }";
    assert_eq!(
        RecordedHistory::parse(&empty).map_err(|e| e.to_string()),
        Err("operations: a history needs at least one request".to_owned())
    );
}

#[test]
fn only_a_file_with_the_version_field_is_taken_for_a_history() {
    assert!(RecordedHistory::is_history(EXAMPLE));
    assert!(!RecordedHistory::is_history(
        r#"{"format": 1, "scenario": "s2"}"#
    ));
    assert!(!RecordedHistory::is_history("not json"));
}

fn invariants(breaches: &[Breach]) -> Vec<Invariant> {
    broken(breaches).iter().collect()
}

#[test]
fn the_fenced_example_breaks_only_the_believer_rule() {
    let breaches = judge(&example());
    assert_eq!(invariants(&breaches), [Invariant::OneBeliever]);
    let believer = &breaches[0];
    assert_eq!(
        believer.at_ms, 1202,
        "client-2's grant, while client-1 still believes"
    );
    assert_eq!(believer.clients, ["client-2", "client-1"]);
    assert_eq!(believer.until_ms, Some(1303), "client-2 sends its release");
}

/// Without fencing, the same history with 33 accepted breaks the data rules: 34 had been told
/// before 33 was sent (stale), and client-2's accepted update came after client-1's read (lost).
#[test]
fn an_accepted_zombie_write_breaks_the_data_rules() {
    let history = edited(
        "\"token\": 33, \"value\": 1, \"accepted\": false",
        "\"token\": 33, \"value\": 1, \"accepted\": true",
    )
    .expect("reads");
    let breaches = judge(&history);
    assert_eq!(
        invariants(&breaches),
        [
            Invariant::OneBeliever,
            Invariant::NoStaleWrite,
            Invariant::NoLostUpdate
        ]
    );
    let stale = breaches
        .iter()
        .find(|b| b.invariant == Invariant::NoStaleWrite)
        .expect("stale");
    assert_eq!((stale.operation, stale.at_ms), (7, 1502));
    assert_eq!(stale.clients, ["client-1", "client-2"]);
}

/// Two leases at once (a grant before the first's TTL ran out, with the first not released),
/// the same token told twice, and two writers with it.
#[test]
fn leases_tokens_and_writers_are_judged_from_grants() {
    let mut history = example();
    let grant = history
        .operations
        .iter_mut()
        .find(|o| o.client == "client-2" && o.at_ms == 1200);
    let grant = grant.expect("client-2's grant");
    grant.at_ms = 900;
    grant.answered_ms = Some(901);
    grant.request = Request::Acquire(Some(Acquired::Granted {
        token: Some(33),
        ttl_ms: Some(1000),
    }));
    for op in &mut history.operations {
        if let Request::Write { token, outcome, .. } = &mut op.request {
            *token = Some(33);
            *outcome = Some(Written::Accepted);
        }
    }
    let breaches = judge(&history);
    for invariant in [
        Invariant::OneLease,
        Invariant::TokensIncrease,
        Invariant::OneWriterPerToken,
    ] {
        assert!(
            invariants(&breaches).contains(&invariant),
            "{invariant:?} in {breaches:?}"
        );
    }
    let lease = breaches
        .iter()
        .find(|b| b.invariant == Invariant::OneLease)
        .expect("lease");
    assert_eq!(lease.at_ms, 901, "33's lease surely lasts until 0 + 1000");
}

/// The surest reading: a grant answered after the write was sent does not make it stale (the
/// write may have been applied first), and a lease whose TTL ran out by the next grant's answer
/// is not a second one.
#[test]
fn what_the_timing_cannot_prove_is_not_a_breach() {
    let history = edited(
        "\"at_ms\": 1500, \"answered_ms\": 1502, \"token\": 33, \"value\": 1, \"accepted\": false",
        "\"at_ms\": 1201, \"answered_ms\": 1205, \"token\": 33, \"value\": 1, \"accepted\": true",
    )
    .expect("reads");
    let breaches = judge(&history);
    assert!(
        !invariants(&breaches).contains(&Invariant::NoStaleWrite),
        "{breaches:?}"
    );
    assert!(
        !invariants(&breaches).contains(&Invariant::OneLease),
        "{breaches:?}"
    );
}

/// The resource's own history: the fenced example is linearizable; a read of a value nobody
/// wrote is not.
#[test]
fn the_resources_history_goes_to_the_linearizability_checker() {
    use lockstep_sim::analysis::linearizability::{Budget, check};
    use lockstep_sim::analysis::recorded_verdicts::register_history;
    let register = register_history(&example());
    assert_eq!(
        register.operations.len(),
        3,
        "two reads and the one accepted write"
    );
    assert!(check(&register, Budget::DEFAULT).is_linearizable());
    let history = edited(
        "\"at_ms\": 1203, \"answered_ms\": 1204, \"value\": 0",
        "\"at_ms\": 1203, \"answered_ms\": 1204, \"value\": 5",
    )
    .expect("reads");
    assert!(!check(&register_history(&history), Budget::DEFAULT).is_linearizable());
}
