//! The expectation checker can fail: every kind of expectation is checked both ways against one
//! run (S2: client-b writes with token 34, client-a's write with token 33 is fenced off), and a
//! failed expectation says what happened instead.

use crate::support::{built_in, run};
use lockstep_sim::Sim;
use lockstep_sim::analysis::expectation_check;
use lockstep_sim::scenario::expectation::{
    Expectation, InvariantOutcome, Occurrence, ResultKind, WriteVerdict,
};
use lockstep_sim::vocabulary::invariant::Invariant;

fn s2() -> Sim {
    run(&built_in("s2-gc-pause-fenced"))
}

fn holds(sim: &Sim, expectation: Expectation) {
    assert_eq!(
        expectation_check::check(&expectation, sim),
        Ok(()),
        "{expectation:?}"
    );
}

fn fails_with(sim: &Sim, expectation: Expectation, message: &str) {
    assert_eq!(
        expectation_check::check(&expectation, sim),
        Err(message.to_owned()),
        "{expectation:?}"
    );
}

#[test]
fn an_invariant_expectation_holds_or_names_the_event_that_broke_it() {
    let sim = s2();
    let expect = |invariant, outcome| Expectation::Invariant { invariant, outcome };
    holds(
        &sim,
        expect(Invariant::NoStaleWrite, InvariantOutcome::Holds),
    );
    holds(
        &sim,
        expect(Invariant::OneBeliever, InvariantOutcome::Violated),
    );
    fails_with(
        &sim,
        expect(Invariant::OneBeliever, InvariantOutcome::Holds),
        "expected \"At most one client believes it holds the lock\" to hold, \
         but event #10 at t=1207 ms broke it",
    );
    fails_with(
        &sim,
        expect(Invariant::NoStaleWrite, InvariantOutcome::Violated),
        "expected \"No write accepted with a stale token\" to be violated, \
         but it held throughout",
    );
}

#[test]
fn a_write_expectation_checks_the_writer_the_verdict_and_the_count() {
    let sim = s2();
    let write = |nth, by: &str, outcome| Expectation::Write {
        nth,
        by: by.to_owned(),
        outcome,
    };
    holds(&sim, write(1, "client-b", WriteVerdict::Accepted));
    holds(&sim, write(2, "client-a", WriteVerdict::Rejected));
    fails_with(
        &sim,
        write(1, "client-b", WriteVerdict::Rejected),
        "expected write 1 by client-b to be rejected, but it was client-b's and accepted",
    );
    fails_with(
        &sim,
        write(2, "client-b", WriteVerdict::Rejected),
        "expected write 2 by client-b to be rejected, but it was client-a's and rejected",
    );
    fails_with(
        &sim,
        write(3, "client-a", WriteVerdict::Accepted),
        "expected a write number 3, but fewer writes reached the resource",
    );
}

#[test]
fn a_result_expectation_names_how_the_job_really_ended() {
    let sim = s2();
    let result = |client: &str, result| Expectation::Result {
        client: client.to_owned(),
        result,
    };
    holds(&sim, result("client-a", ResultKind::Fenced));
    holds(&sim, result("client-b", ResultKind::Done));
    fails_with(
        &sim,
        result("client-a", ResultKind::Done),
        "expected client-a to end done, but it ended fenced",
    );

    let mut cut_short = built_in("s2-gc-pause-fenced");
    cut_short.end_ms = lockstep_sim::world::time::Millis(1_000);
    fails_with(
        &run(&cut_short),
        result("client-a", ResultKind::Fenced),
        "expected client-a to end fenced, but it never finished",
    );
}

#[test]
fn a_final_value_expectation_reports_the_value_held() {
    let sim = s2();
    holds(&sim, Expectation::FinalValue { value: 1 });
    fails_with(
        &sim,
        Expectation::FinalValue { value: 2 },
        "expected the resource to end with 2, but it holds 1",
    );
}

#[test]
fn an_event_expectation_finds_the_first_event_of_its_kind() {
    let sim = s2();
    let event = |kind: &str, outcome| Expectation::Event {
        kind: kind.to_owned(),
        outcome,
    };
    holds(&sim, event("write_rejected", Occurrence::Occurs));
    holds(&sim, event("released_others_lock", Occurrence::Never));
    fails_with(
        &sim,
        event("write_rejected", Occurrence::Never),
        "expected no write_rejected event, but event #20 at t=2058 ms is one",
    );
    fails_with(
        &sim,
        event("released_others_lock", Occurrence::Occurs),
        "expected a released_others_lock event, but none happened",
    );
}

/// Every catalogue expectation is one of the kinds above; each scenario's own expectations are
/// checked in `catalogue.rs`. Here: negating any of S2's expectations makes it fail.
#[test]
fn negating_each_of_s2s_own_expectations_makes_it_fail() {
    let scenario = built_in("s2-gc-pause-fenced");
    let sim = run(&scenario);
    assert!(!scenario.expectations.is_empty());
    for expectation in &scenario.expectations {
        assert_eq!(
            expectation_check::check(expectation, &sim),
            Ok(()),
            "{expectation:?}"
        );
        let negated = negate(expectation);
        assert!(
            expectation_check::check(&negated, &sim).is_err(),
            "the opposite of {expectation:?} must fail"
        );
    }
}

fn negate(expectation: &Expectation) -> Expectation {
    match expectation.clone() {
        Expectation::Invariant { invariant, outcome } => Expectation::Invariant {
            invariant,
            outcome: match outcome {
                InvariantOutcome::Holds => InvariantOutcome::Violated,
                InvariantOutcome::Violated => InvariantOutcome::Holds,
            },
        },
        Expectation::Write { nth, by, outcome } => Expectation::Write {
            nth,
            by,
            outcome: match outcome {
                WriteVerdict::Accepted => WriteVerdict::Rejected,
                WriteVerdict::Rejected => WriteVerdict::Accepted,
            },
        },
        Expectation::Result { client, result } => Expectation::Result {
            client,
            result: if result == ResultKind::Done {
                ResultKind::Fenced
            } else {
                ResultKind::Done
            },
        },
        Expectation::FinalValue { value } => Expectation::FinalValue { value: value + 1 },
        Expectation::Event { kind, outcome } => Expectation::Event {
            kind,
            outcome: match outcome {
                Occurrence::Occurs => Occurrence::Never,
                Occurrence::Never => Occurrence::Occurs,
            },
        },
    }
}
