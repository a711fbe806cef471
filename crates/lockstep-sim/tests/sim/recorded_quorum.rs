//! Recorded histories of a lock made of several servers' grants (Redlock, `quorum`): the
//! documented example reads with its cut links and clock jump; a client believes and holds the
//! lock only with a quorum; a forward clock jump on a server ends the leases it would have
//! outlived. Each rule is shown to fail on the example edited to break it.

use lockstep_sim::analysis::recorded_verdicts::{Ended, broken, judge, leases, server_leases};
use lockstep_sim::story::recorded::{Applied, RecordedHistory};
use lockstep_sim::vocabulary::happening::Direction;
use lockstep_sim::vocabulary::invariant::{Invariant, InvariantSet};

const EXAMPLE: &str = include_str!("../../../../docs/examples/history-redlock-clock-jump.json");

fn edited(from: &str, to: &str) -> RecordedHistory {
    assert!(EXAMPLE.contains(from), "the example has {from}");
    RecordedHistory::parse(&EXAMPLE.replacen(from, to, 1)).expect("reads")
}

fn broke(history: &RecordedHistory) -> InvariantSet {
    broken(&judge(history))
}

const JUMP: &str = r#"{ "at_ms": 300, "node": "redis-c", "fault": "clock_jump", "by_ms": 15000 }"#;

#[test]
fn the_redlock_example_reads_with_its_quorum_cuts_and_jump() {
    let history = RecordedHistory::parse(EXAMPLE).expect("the documented example reads");
    assert_eq!(history.quorum, 3);
    assert_eq!(
        history.faults[0].applied,
        Applied::Cut {
            peer: "redis-d".to_owned(),
            direction: Direction::Both,
        }
    );
    let written = serde_json::to_string(&history.to_file()).expect("serialises");
    assert!(written.contains("\"quorum\":3") && written.contains("\"peer\":\"redis-d\""));
    assert_eq!(RecordedHistory::parse(&written), Ok(history));
}

#[test]
fn cuts_and_quorums_that_do_not_hold_together_say_where() {
    for (from, to, said) in [
        (
            r#""fault": "cut", "peer": "redis-d""#,
            r#""fault": "cut""#,
            "faults[0].peer: a cut needs its other end",
        ),
        (
            r#""fault": "clock_jump", "by_ms": 15000"#,
            r#""fault": "clock_jump", "by_ms": 15000, "peer": "redis-a""#,
            "faults[4].peer: only a cut has another end",
        ),
        ("\"quorum\": 3", "\"quorum\": 0", "quorum: a lock needs"),
        (
            r#""fault": "clock_jump", "by_ms": 15000"#,
            r#""fault": "clock_jump", "by_ms": 15000, "direction": "one_way""#,
            "faults[4].direction: only a cut has a direction",
        ),
    ] {
        assert!(EXAMPLE.contains(from), "the example has {from}");
        let refused = RecordedHistory::parse(&EXAMPLE.replacen(from, to, 1))
            .expect_err(to)
            .to_string();
        assert!(refused.contains(said), "{to}: {refused}");
    }
}

/// A cut one way (only what the client sends is lost, as etcd's S18 has it) reads with its
/// direction and writes it back; a cut both ways writes none, as every earlier file has none.
#[test]
fn a_cut_one_way_keeps_its_direction_and_both_ways_writes_none() {
    let one_way = EXAMPLE.replacen(
        r#""fault": "cut", "peer": "redis-d""#,
        r#""fault": "cut", "peer": "redis-d", "direction": "one_way""#,
        1,
    );
    let history = RecordedHistory::parse(&one_way).expect("a one-way cut reads");
    assert_eq!(
        history.faults[0].applied,
        Applied::Cut {
            peer: "redis-d".to_owned(),
            direction: Direction::OneWay,
        }
    );
    let written = serde_json::to_string(&history.to_file()).expect("serialises");
    assert_eq!(written.matches("\"direction\":\"one_way\"").count(), 1);
    let both = RecordedHistory::parse(EXAMPLE).expect("reads");
    let written = serde_json::to_string(&both.to_file()).expect("serialises");
    assert!(!written.contains("direction"), "{written}");
}

/// Two believers, and no two majorities at once: C's jump ended client-1's lease there at
/// 300 ms, so from then on client-1 held only two of five.
#[test]
fn two_believers_but_never_two_majorities() {
    let history = RecordedHistory::parse(EXAMPLE).expect("reads");
    assert_eq!(
        broke(&history),
        InvariantSet::EMPTY.with(Invariant::OneBeliever)
    );
    let on_c = server_leases(&history)
        .into_iter()
        .find(|l| {
            l.client == "client-1"
                && history.operations[l.operation].server.as_deref() == Some("redis-c")
        })
        .expect("client-1's lease on redis-c");
    assert_eq!((on_c.to_ms, on_c.ended), (Some(300), Ended::ClockJumped));
    let majorities: Vec<(&str, u64, Option<u64>)> = leases(&history)
        .iter()
        .map(|l| (l.client, l.from_ms, l.to_ms))
        .collect();
    assert_eq!(
        majorities,
        [("client-1", 1, Some(300)), ("client-2", 502, Some(1053))]
    );
}

/// Without the jump, C still holds client-1's key when it grants client-2's: two majorities
/// overlap, and the lease rule fails. (On a real Redis, C would have refused client-2; the
/// judge only reads what the history says.)
#[test]
fn without_the_jump_two_majorities_overlap() {
    let history = edited(&format!(",\n    {JUMP}"), "");
    assert!(
        broke(&history).contains(Invariant::OneLease),
        "{:?}",
        judge(&history)
    );
}

/// Read as a single service (quorum 1), every grant is a lock: client-1's leases on A and B
/// overlap client-2's on D.
#[test]
fn without_the_quorum_every_grant_is_a_lock() {
    let history = edited("\"quorum\": 3,", "");
    assert_eq!(history.quorum, 1);
    assert!(broke(&history).contains(Invariant::OneLease));
}

/// With only two of five grants, client-2 never believes it holds the lock.
#[test]
fn a_client_short_of_a_quorum_believes_nothing() {
    let history = edited(
        r#""server": "redis-e", "answered_ms": 502, "granted": true, "ttl_ms": 10000"#,
        r#""server": "redis-e", "answered_ms": 502, "granted": false"#,
    );
    assert_eq!(broke(&history), InvariantSet::EMPTY);
}

/// A backward jump lengthens a lease, which the surest reading does not count (client-1's lease
/// on C then ends when client-2's release lets C's key go); a forward jump smaller than what is
/// left ends the lease that much early.
#[test]
fn only_a_forward_jump_shortens_a_lease() {
    let on_c = |history: &RecordedHistory| {
        server_leases(history)
            .into_iter()
            .find(|l| l.client == "client-1" && l.operation == 2)
            .map(|l| (l.to_ms, l.ended))
    };
    let back = edited("\"by_ms\": 15000", "\"by_ms\": -15000");
    assert_eq!(on_c(&back), Some((Some(1053), Ended::LetGo)));
    let small = edited("\"by_ms\": 15000", "\"by_ms\": 9000");
    assert_eq!(on_c(&small), Some((Some(1000), Ended::ClockJumped)));
}
