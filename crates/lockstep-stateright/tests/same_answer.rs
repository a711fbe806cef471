//! Stateright's breadth-first checker and Lockstep's search, on the same space, give the same
//! answer: a counterexample of the same length with fencing off, none with fencing on.

use lockstep_sim::resource::Fencing;
use lockstep_sim::search::{Search, SearchStatus};
use lockstep_stateright::{ModelVerdict, check, comparison_config};

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
fn fencing_on_neither_finds_one_and_both_count_the_same_states() {
    let (length, states) = ours(Fencing::On);
    let verdict = check(&comparison_config(Fencing::On)).expect("valid");
    assert_eq!(length, None);
    assert_eq!(verdict.counterexample, None);
    assert_eq!(
        verdict.states as u64, states,
        "the same space, every state of it"
    );
}
