//! Lockstep's counterexample search cross-checked with Stateright (crates.io `stateright`
//! 0.31.0) and its breadth-first checker, natively only: this crate is never part of the wasm
//! build.
//!
//! [`SimModel`] is a Stateright `Model` over the same choice space as `lockstep_sim::search`
//! (the same states, moves and fingerprints: `SearchSpace`), not an independent model of the
//! protocol. The counterexample's length counts the simulator's trace events (each message
//! delivered, each timer, each fault), and an independent model could only match that count by
//! reproducing the simulator event for event, latencies drawn from its seed included (NOTES.md,
//! issue 14). What the comparison checks is the search engine itself: Stateright's checker,
//! walking the same space, must find a counterexample of the same length, or none, and the two
//! explore states at rates that can be set side by side.
//!
//! [`independent::SqlRowModel`] is the independent model (the protocol written from the
//! article, in ticks): it is checked to reach the same verdict, not the same length.
//!
//! [`comparison_config`] is the configuration both are measured on: the article's SQL-row lock,
//! two clients, a register fenced or not, and the same fault budget.

pub mod independent;

use lockstep_sim::analysis::search::{
    Bounds, FaultBudget, Move, SearchConfig, SearchError, SearchSpace, SearchState,
};
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::world::time::Millis;
use lockstep_sim::{Scenario, scenario::catalogue};
use stateright::{Checker, Model, Property};
use std::hash::{Hash, Hasher};

/// A search state as Stateright keeps it: compared and hashed by its fingerprint, as the
/// search skips states.
#[derive(Clone, Debug)]
pub struct ModelState(pub SearchState);

impl Hash for ModelState {
    fn hash<H: Hasher>(&self, hasher: &mut H) {
        SearchSpace::fingerprint(&self.0).hash(hasher);
    }
}

impl PartialEq for ModelState {
    fn eq(&self, other: &ModelState) -> bool {
        SearchSpace::fingerprint(&self.0) == SearchSpace::fingerprint(&other.0)
    }
}

/// The search space as a Stateright model.
pub struct SimModel {
    space: SearchSpace,
    first: SearchState,
}

/// The name of the one property: the invariant the search tries to break holds.
pub const PROPERTY: &str = "the invariant holds";

impl SimModel {
    pub fn new(config: &SearchConfig) -> Result<SimModel, SearchError> {
        let (space, first) = SearchSpace::new(config)?;
        Ok(SimModel { space, first })
    }
}

impl Model for SimModel {
    type State = ModelState;
    type Action = Move;

    fn init_states(&self) -> Vec<ModelState> {
        vec![ModelState(self.first.clone())]
    }

    fn actions(&self, state: &ModelState, actions: &mut Vec<Move>) {
        actions.extend(self.space.moves(&state.0));
    }

    fn next_state(&self, state: &ModelState, action: Move) -> Option<ModelState> {
        self.space.apply(&state.0, action).map(ModelState)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![Property::always(
            PROPERTY,
            |model: &SimModel, state: &ModelState| !state.0.breaks(model.space.invariant()),
        )]
    }
}

/// What Stateright's breadth-first checker found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelVerdict {
    /// The counterexample's length in trace events (moves), if one was found.
    pub counterexample: Option<usize>,
    /// Distinct states the checker generated.
    pub states: usize,
}

/// Checks `config` with Stateright's breadth-first checker on one thread (so that it finds a
/// shortest path, and so that its rate compares with the search's single thread).
pub fn check(config: &SearchConfig) -> Result<ModelVerdict, SearchError> {
    let checker = SimModel::new(config)?
        .checker()
        .threads(1)
        .spawn_bfs()
        .join();
    Ok(ModelVerdict {
        counterexample: checker
            .discovery(PROPERTY)
            .map(|path| path.into_actions().len()),
        states: checker.unique_state_count(),
    })
}

/// The configuration both are measured on: S1's SQL-row lock and two clients (their faults
/// taken out), the register fenced or not, at most two faults — pauses of 2,000 ms (twice the
/// lease) or messages held back 1,000 ms — at steps of 100 ms, `no_stale_write` to break.
pub fn comparison_config(fencing: Fencing) -> SearchConfig {
    let mut base: Scenario = catalogue::find("s1-gc-pause-unfenced")
        .and_then(|built_in| built_in.load().ok())
        .unwrap_or_else(|| unreachable!("S1 is in the embedded catalogue"));
    base.interventions.clear();
    base.expectations.clear();
    base.resource = base.resource.with_fencing(fencing);
    SearchConfig {
        base,
        invariant: Invariant::NoStaleWrite,
        faults: FaultBudget {
            max: 2,
            pauses: vec![Millis(2_000)],
            message_delays: vec![Millis(1_000)],
            ..FaultBudget::default()
        },
        bounds: Bounds {
            step_ms: Millis(100),
            max_events: 60,
        },
    }
}
