//! A comparison with another built-in scenario: the other half of a catalogue pair that differs
//! in one fault or setting (S20: the same fast clock on a follower, then on the leader).
//!
//! The twin runs the other scenario's own file with the seed, fencing and interventions in use
//! here, so what the user changes lands on both runs; interventions name nodes by name, so a
//! pair must share its cast for them to apply. The verdict line judges both complete runs as a
//! comparison with another service does (`lockstep_sim::analysis::against::SideVerdict`), in the same
//! words. Pure: no browser, no loading — the other file comes with the action that
//! asks for the comparison.

use lockstep_sim::analysis::against::{SideVerdict, service_of};
use lockstep_sim::engine::trace::TraceEvent;
use lockstep_sim::scenario::types::Scenario;

/// What a comparison with another built-in scenario shows besides the twin's run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioTwin {
    /// The other scenario's catalogue id.
    pub id: &'static str,
    pub title: String,
    /// "This run: …; the twin: …", judged from both complete runs.
    pub verdict: String,
    /// The other scenario's file as loaded: a rerun (another seed, an intervention) compares
    /// with it again.
    pub file: std::rc::Rc<Scenario>,
}

/// The scenario the twin runs: `other`, with the fencing `main` runs with where both resources
/// have fencing to set (switching fencing here switches it on both sides).
pub fn twin_scenario(main: &Scenario, other: &Scenario) -> Scenario {
    let mut twin = other.clone();
    if let (Some(fencing), Some(_)) = (main.resource.fencing(), other.resource.fencing()) {
        twin.resource = twin.resource.with_fencing(fencing);
    }
    twin
}

/// Both runs' verdicts in one line: "This run: two clients believed they held the lock from
/// 6,022 ms; the twin: never".
pub fn verdict_line(
    main: &Scenario,
    main_trace: &[TraceEvent],
    twin: &Scenario,
    twin_trace: &[TraceEvent],
) -> String {
    let here = SideVerdict::of(service_of(&main.lock_service), main_trace);
    let there = SideVerdict::of(service_of(&twin.lock_service), twin_trace);
    format!(
        "This run: {}; the twin: {}",
        here.phrase(there.first().is_some()),
        there.phrase(here.first().is_some())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::models::resource::Fencing;
    use lockstep_sim::{Sim, scenario::catalogue};

    fn built_in(id: &str) -> Scenario {
        catalogue::find(id)
            .and_then(|b| b.load().ok())
            .unwrap_or_else(|| panic!("{id} is built in"))
    }

    fn trace(scenario: &Scenario) -> Vec<TraceEvent> {
        let mut sim = Sim::new(scenario).expect("runs");
        sim.run_to_end();
        sim.trace().to_vec()
    }

    #[test]
    fn the_twin_runs_with_the_fencing_chosen_here() {
        let mut leader = built_in("s20-consensus-fast-leader-clock");
        let follower = built_in("s20-consensus-fast-follower-clock");
        assert_eq!(follower.resource.fencing(), Some(Fencing::Off));
        leader.resource = leader.resource.with_fencing(Fencing::On);
        let twin = twin_scenario(&leader, &follower);
        assert_eq!(twin.resource.fencing(), Some(Fencing::On));
        assert_eq!(twin.id, follower.id);
        assert_eq!(twin.interventions, follower.interventions);
    }

    #[test]
    fn the_verdict_says_what_broke_on_each_side() {
        let leader = built_in("s20-consensus-fast-leader-clock");
        let follower = built_in("s20-consensus-fast-follower-clock");
        let (l, f) = (trace(&leader), trace(&follower));
        assert_eq!(
            verdict_line(&leader, &l, &follower, &f),
            "This run: two clients believed they held the lock from 6,022 ms; the twin: never"
        );
        assert_eq!(
            verdict_line(&follower, &f, &leader, &l),
            "This run: never; the twin: two clients believed they held the lock from 6,022 ms"
        );
        assert_eq!(
            verdict_line(&follower, &f, &follower, &f),
            "This run: no invariant broke; the twin: no invariant broke"
        );
    }
}
