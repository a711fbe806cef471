//! The playground's state and its one reducer.
//!
//! `Playground` owns the scenario, the seed, the complete run (for the hash and the length) and
//! a simulation stepped exactly to the position the user is looking at. Every change goes through
//! [`Action`] and `Reducible::reduce`; an action that changes nothing returns the same `Rc`, so
//! Yew skips the re-render.

use lockstep_sim::catalogue;
use lockstep_sim::scenario::Scenario;
use lockstep_sim::sim::Sim;
use lockstep_sim::trace::TraceEvent;
use std::rc::Rc;
use yew::prelude::*;

/// What the user can do to the playground.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Show the next event.
    Step,
    /// Go back one event.
    Back,
    /// Return to the start of the run.
    Reset,
    /// Open the built-in scenario with this id, at its start.
    Open(&'static str),
}

#[derive(Clone)]
pub struct Playground {
    /// `None` only when nothing could be loaded (see `problem`).
    scenario: Option<Rc<Scenario>>,
    seed: u64,
    full: Rc<Sim>,
    at: Rc<Sim>,
    problem: Option<String>,
}

impl PartialEq for Playground {
    fn eq(&self, other: &Self) -> bool {
        self.scenario == other.scenario
            && self.seed == other.seed
            && self.at.trace().len() == other.at.trace().len()
            && self.problem == other.problem
    }
}

impl Playground {
    /// The built-in scenario the app opens with. The catalogue is checked by native tests; should
    /// the default fail to load anyway, the app shows why instead of panicking.
    pub fn default_scenario() -> Playground {
        match catalogue::find(catalogue::DEFAULT_ID).map(|b| b.load()) {
            Some(Ok(scenario)) => Playground::open(scenario),
            Some(Err(e)) => Playground::unloaded(format!("The default scenario is broken: {e}")),
            None => {
                Playground::unloaded("The default scenario is missing from this build.".to_owned())
            }
        }
    }

    /// Opens `scenario` at the moment its run starts: every event at t = 0 is shown.
    pub fn open(scenario: Scenario) -> Playground {
        let seed = scenario.seed;
        let mut at = match Sim::new(&scenario) {
            Ok(sim) => sim,
            Err(e) => return Playground::unloaded(format!("{}: {e}", scenario.id)),
        };
        let mut full = at.clone();
        full.run_to_end();
        while full
            .trace()
            .get(at.trace().len())
            .is_some_and(|next| next.time.0 == 0)
        {
            at.step();
        }
        Playground {
            scenario: Some(Rc::new(scenario)),
            seed,
            full: Rc::new(full),
            at: Rc::new(at),
            problem: None,
        }
    }

    fn unloaded(problem: String) -> Playground {
        Playground {
            scenario: None,
            seed: 0,
            full: Rc::new(Sim::idle()),
            at: Rc::new(Sim::idle()),
            problem: Some(problem),
        }
    }

    /// Why nothing could be loaded, if that is the case.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    pub fn title(&self) -> &str {
        self.scenario
            .as_deref()
            .map_or("No scenario", |s| s.title.as_str())
    }

    pub fn summary(&self) -> &str {
        self.scenario.as_deref().map_or("", |s| s.summary.as_str())
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The hash of the complete run: equal to what `lockstep-cli` prints for the same input.
    pub fn full_hash(&self) -> String {
        self.full.hash()
    }

    /// The simulation as it stands after the shown events.
    pub fn sim(&self) -> &Sim {
        &self.at
    }

    /// The events shown so far.
    pub fn shown(&self) -> &[TraceEvent] {
        self.at.trace()
    }

    pub fn total(&self) -> usize {
        self.full.trace().len()
    }

    pub fn can_step(&self) -> bool {
        self.shown().len() < self.total()
    }

    pub fn can_go_back(&self) -> bool {
        !self.shown().is_empty()
    }

    /// The simulation replayed from the start to `position` events.
    fn replayed_to(&self, position: usize) -> Option<Sim> {
        let mut sim = Sim::with_log(self.scenario.as_deref()?, self.seed, &[]).ok()?;
        while sim.trace().len() < position && sim.step().is_some() {}
        Some(sim)
    }

    /// The same state with a message saying why an action could not be done.
    fn with_problem(&self, problem: String) -> Playground {
        Playground {
            problem: Some(problem),
            ..self.clone()
        }
    }

    /// The id of the open scenario.
    pub fn scenario_id(&self) -> &str {
        self.scenario.as_deref().map_or("", |s| s.id.as_str())
    }

    fn with_sim(&self, at: Sim) -> Playground {
        Playground {
            at: Rc::new(at),
            ..self.clone()
        }
    }
}

impl Reducible for Playground {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = match action {
            Action::Step if self.can_step() => {
                let mut sim = (*self.at).clone();
                sim.step();
                Some(self.with_sim(sim))
            }
            Action::Back if self.can_go_back() => self
                .replayed_to(self.shown().len() - 1)
                .map(|sim| self.with_sim(sim)),
            Action::Reset => self
                .scenario
                .as_deref()
                .map(|s| Playground::open(s.clone())),
            Action::Open(id) => Some(match catalogue::find(id).map(|b| b.load()) {
                Some(Ok(scenario)) => Playground::open(scenario),
                Some(Err(e)) => self.with_problem(format!("The scenario {id} is broken: {e}")),
                None => self.with_problem(format!("There is no built-in scenario called {id}.")),
            }),
            Action::Step | Action::Back => None,
        };
        next.map_or(self, Rc::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reduce(state: Rc<Playground>, action: Action) -> Rc<Playground> {
        state.reduce(action)
    }

    #[test]
    fn opens_at_the_start_with_the_first_events_shown() {
        let playground = Playground::default_scenario();
        assert!(!playground.shown().is_empty());
        assert!(playground.shown().iter().all(|e| e.time.0 == 0));
        assert!(playground.can_step());
    }

    #[test]
    fn step_shows_exactly_the_next_event_of_the_full_run() {
        let start = Rc::new(Playground::default_scenario());
        let before = start.shown().len();
        let next = reduce(start.clone(), Action::Step);
        assert_eq!(next.shown().len(), before + 1);
        assert_eq!(next.shown()[before], start.full.trace()[before]);
    }

    #[test]
    fn back_undoes_step_and_no_ops_keep_the_same_state() {
        let start = Rc::new(Playground::default_scenario());
        let stepped = reduce(start.clone(), Action::Step);
        let back = reduce(stepped, Action::Back);
        assert_eq!(back.shown(), start.shown());
        let mut end = start;
        while end.can_step() {
            end = reduce(end, Action::Step);
        }
        let same = reduce(end.clone(), Action::Step);
        assert!(
            Rc::ptr_eq(&end, &same),
            "stepping past the end changes nothing"
        );
        assert_eq!(end.shown().len(), end.total());
    }

    #[test]
    fn open_switches_scenario_and_an_unknown_id_keeps_the_state() {
        let start = Rc::new(Playground::default_scenario());
        let other = reduce(start.clone(), Action::Open("s1-gc-pause-unfenced"));
        assert_eq!(other.scenario_id(), "s1-gc-pause-unfenced");
        assert_eq!(other.problem(), None);
        let stepped = reduce(start, Action::Step);
        let kept = reduce(stepped.clone(), Action::Open("no-such-scenario"));
        assert_eq!(kept.shown(), stepped.shown(), "the current state survives");
        assert!(
            kept.problem()
                .is_some_and(|p| p.contains("no-such-scenario"))
        );
    }

    #[test]
    fn the_default_scenario_loads() {
        assert_eq!(Playground::default_scenario().problem(), None);
    }

    fn action() -> impl proptest::strategy::Strategy<Value = Action> {
        use proptest::prelude::*;
        let ids: Vec<&'static str> = catalogue::BUILT_IN
            .iter()
            .map(|b| b.id)
            .chain(["no-such-scenario"])
            .collect();
        prop_oneof![
            8 => Just(Action::Step),
            3 => Just(Action::Back),
            1 => Just(Action::Reset),
            1 => proptest::sample::select(ids).prop_map(Action::Open),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config { cases: 2_000, ..Default::default() })]

        /// Any sequence of user actions leaves a consistent state and never panics (in wasm a
        /// panic would kill the page).
        #[test]
        fn random_action_sequences_keep_the_playground_consistent(
            actions in proptest::collection::vec(action(), 0..60)
        ) {
            let mut state = Rc::new(Playground::default_scenario());
            for action in actions {
                state = reduce(state, action);
                proptest::prop_assert!(state.shown().len() <= state.total());
                let full = state.full.trace();
                proptest::prop_assert_eq!(state.shown(), &full[..state.shown().len()]);
                proptest::prop_assert_eq!(state.can_step(), state.shown().len() < state.total());
            }
        }
    }
}
