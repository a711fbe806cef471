//! Whether a recording and its simulation agree, said as a reader needs it: the same so far; the
//! same by the end, one run having got there first (S4's stale write lands a few milliseconds
//! apart); or different even at the end, which a recording built to differ shows.

use super::side_by_side::{Agreement, SideBySide};
use crate::test_files::loaded;
use lockstep_sim::story::recorded::{RecordedHistory, Request};
use lockstep_sim::vocabulary::invariant::Invariant;

fn s4(edit: impl FnOnce(&mut RecordedHistory)) -> SideBySide {
    let text = include_str!("../../../../content/recorded/s4-delayed-packet.postgres.json");
    let mut history = RecordedHistory::parse(text).expect("the S4 recording reads");
    edit(&mut history);
    let scenario = loaded("s4-delayed-packet").expect("S4 is built in");
    SideBySide::of(history, Some(&scenario)).expect("S4 runs")
}

/// When each side first broke `no_stale_write`.
fn stale_times(both: &SideBySide) -> (u64, u64) {
    let recorded = both
        .recorded
        .breaches_by(u64::MAX)
        .find(|b| b.invariant == Invariant::NoStaleWrite)
        .map(|b| b.at_ms)
        .expect("the recording breaks no_stale_write");
    let simulated = both
        .simulated
        .as_ref()
        .and_then(|s| {
            s.run
                .sim
                .trace()
                .iter()
                .find(|e| e.broke.contains(Invariant::NoStaleWrite))
        })
        .map(|e| e.time.0)
        .expect("the simulation breaks no_stale_write");
    (recorded, simulated)
}

#[test]
fn a_breach_one_run_reaches_first_differs_only_in_time() {
    let both = s4(|_| {});
    let (recorded, simulated) = stale_times(&both);
    assert_ne!(
        recorded, simulated,
        "the two land at different milliseconds"
    );
    let first = recorded.min(simulated);
    assert_eq!(both.agreement_by(first), Some(Agreement::OnlyInTime));
    assert_eq!(both.agreement_by(first - 1), Some(Agreement::SoFar));
    assert_eq!(both.agreement_by(u64::MAX), Some(Agreement::SoFar));
}

#[test]
fn a_recording_that_never_breaks_what_the_simulation_breaks_disagrees() {
    // Without the register's log, client-a's write never lands: nothing stale, ever.
    let both = s4(|history| {
        for op in &mut history.operations {
            if let Request::Write { applied_ms, .. } = &mut op.request
                && op.answered_ms.is_none()
            {
                *applied_ms = None;
            }
        }
    });
    assert_eq!(both.agreement_by(u64::MAX), Some(Agreement::Disagree));
}

#[test]
fn a_recording_alone_has_nothing_to_agree_with() {
    let text = include_str!("../../../../content/recorded/s4-delayed-packet.postgres.json");
    let history = RecordedHistory::parse(text).expect("reads");
    let alone = SideBySide::of(history, None).expect("shown alone");
    assert_eq!(alone.agreement_by(u64::MAX), None);
}
