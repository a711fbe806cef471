//! Stateright's breadth-first checker and Lockstep's search, on the same space, give the same
//! answer: a counterexample of the same length with fencing off and with fencing on (the gap
//! before the new holder's first write, which two faults reach), and none with the sequencer
//! check, after counting the same states.

use lockstep_sim::analysis::search::{Search, SearchStatus};
use lockstep_sim::models::resource::Fencing;
use lockstep_stateright::independent::{S1_TIMING, SqlRowModel};
use lockstep_stateright::{ModelVerdict, check, comparison_config};
use stateright::{Checker, Model};

fn ours(fencing: Fencing) -> (Option<usize>, u64) {
    match Search::new(&comparison_config(fencing))
        .expect("valid")
        .run()
    {
        SearchStatus::Found(found) => (Some(found.length), found.states),
        SearchStatus::Exhausted { states, .. } => (None, states),
        SearchStatus::Running { .. } => unreachable!("run() ends"),
    }
}

#[test]
fn fencing_off_both_find_a_counterexample_of_the_same_length() {
    let (length, _) = ours(Fencing::Off);
    let ModelVerdict { counterexample, .. } =
        check(&comparison_config(Fencing::Off)).expect("valid");
    assert!(length.is_some(), "the search finds one");
    assert_eq!(counterexample, length);
}

#[test]
fn fencing_on_both_find_the_gap_with_the_same_length() {
    let (length, _) = ours(Fencing::On);
    let ModelVerdict { counterexample, .. } =
        check(&comparison_config(Fencing::On)).expect("valid");
    assert!(length.is_some(), "two faults reach the fencing gap");
    assert_eq!(counterexample, length);
}

#[test]
fn with_the_sequencer_check_neither_finds_one_and_both_count_the_same_states() {
    let (length, states) = ours(Fencing::Sequencer);
    let verdict = check(&comparison_config(Fencing::Sequencer)).expect("valid");
    assert_eq!(length, None);
    assert_eq!(verdict.counterexample, None);
    assert_eq!(
        verdict.states as u64, states,
        "the same space, every state of it"
    );
}

/// The independent model's verdict: whether Stateright finds a stale write, and in how many of
/// its own actions.
fn independent(fenced: bool, max_pauses: u8) -> Option<usize> {
    let model = SqlRowModel {
        fenced,
        max_pauses,
        timing: S1_TIMING,
    };
    let checker = model.checker().threads(1).spawn_bfs().join();
    checker
        .discovery("no stale write accepted")
        .map(|path| path.into_actions().len())
}

#[test]
fn the_independent_model_reaches_the_same_verdicts() {
    for max in [1, 2] {
        let mut off = comparison_config(Fencing::Off);
        off.faults.max = max;
        off.faults.message_delays.clear();
        let mut on = comparison_config(Fencing::On);
        on.faults.max = max;
        on.faults.message_delays.clear();
        let ours_off = Search::new(&off).expect("valid").run();
        let ours_on = Search::new(&on).expect("valid").run();
        assert!(
            matches!(ours_off, SearchStatus::Found(_)),
            "{max} pause(s), fencing off"
        );
        assert!(
            independent(false, max).is_some(),
            "the model breaks too, fencing off"
        );
        // One pause: the paused holder's write comes after the new holder's and is refused.
        // Two: the new holder is paused too, and the old one's write lands first (the gap).
        let gap = max >= 2;
        assert_eq!(
            matches!(ours_on, SearchStatus::Found(_)),
            gap,
            "{max} pause(s), fencing on"
        );
        assert_eq!(
            independent(true, max).is_some(),
            gap,
            "the model agrees, fencing on, {max} pause(s)"
        );
    }
    // Without a pause neither breaks: the stale write needs the fault.
    assert_eq!(independent(false, 0), None);
}
