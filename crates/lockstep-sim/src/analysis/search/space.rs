//! The search space: its states (a simulation and the faults struck so far), the moves from each
//! (let the run take its next event, or strike a fault at a step of the grid and then let it
//! take its next event) and what a state is worth remembering by (its fingerprint).
//!
//! Every move adds exactly one event to the trace, so a path's length is the run's length in
//! events. The breadth-first search (`engine`) and the Stateright model (`lockstep-stateright`)
//! both walk this one space. It must not keep anything between calls: the same state always
//! gives the same moves.

use super::config::{FaultBudget, SearchConfig, SearchError};
use super::fault::{Fault, delays_at, standing_faults};
use super::fingerprint::Fnv64;
use crate::engine::sim::Sim;
use crate::vocabulary::invariant::Invariant;
use crate::world::time::{Millis, VirtualTime};

/// A point of the search: a simulation and how many faults it has struck.
#[derive(Clone, Debug)]
pub struct SearchState {
    pub sim: Sim,
    pub faults: u8,
}

impl SearchState {
    /// The trace events so far: the length of the path that led here.
    pub fn events(&self) -> usize {
        self.sim.trace().len()
    }

    /// Whether the latest event leaves `invariant` violated.
    pub fn breaks(&self, invariant: Invariant) -> bool {
        self.sim
            .trace()
            .last()
            .is_some_and(|event| event.violated.contains(invariant))
    }
}

/// One move from a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Let the run take its next event.
    Step,
    /// Strike `fault` at `at` (a step of the grid no later than the next event), then let the
    /// run take its next event.
    Strike { at: VirtualTime, fault: Fault },
}

/// The moves and their rules for one configuration.
#[derive(Clone, Debug)]
pub struct SearchSpace {
    budget: FaultBudget,
    standing: Vec<Fault>,
    step: Millis,
    max_events: usize,
    invariant: Invariant,
}

impl SearchSpace {
    /// The space of `config` and its first state (the base before its first event).
    pub fn new(config: &SearchConfig) -> Result<(SearchSpace, SearchState), SearchError> {
        config.validate()?;
        let sim = Sim::new(&config.base).map_err(SearchError::Base)?;
        let space = SearchSpace {
            budget: config.faults.clone(),
            standing: standing_faults(&config.faults, sim.cast()),
            step: config.bounds.step_ms,
            max_events: usize::try_from(config.bounds.max_events).unwrap_or(usize::MAX),
            invariant: config.invariant,
        };
        Ok((space, SearchState { sim, faults: 0 }))
    }

    pub fn invariant(&self) -> Invariant {
        self.invariant
    }

    /// The moves from `state`, in a fixed order: the next event first, then each fault at each
    /// step of the grid after now and no later than the next event (or the end of the run).
    pub fn moves(&self, state: &SearchState) -> Vec<Move> {
        let mut moves = Vec::new();
        if state.events() >= self.max_events {
            return moves;
        }
        let sim = &state.sim;
        let end = sim.end();
        let running = !sim.is_finished();
        if running {
            moves.push(Move::Step);
        }
        if state.faults >= self.budget.max || sim.stopped_by_budget().is_some() {
            return moves;
        }
        let upper = match sim.next_due() {
            Some(next) if running => next.min(end),
            _ => end,
        };
        let step = self.step.0;
        let mut at = (sim.now().0 / step + 1) * step;
        while at <= upper.0 {
            let when = VirtualTime(at);
            for &fault in &self.standing {
                moves.push(Move::Strike { at: when, fault });
            }
            for fault in delays_at(&self.budget, sim.network(), when) {
                moves.push(Move::Strike { at: when, fault });
            }
            at += step;
        }
        moves
    }

    /// The state a move leads to, or `None` when it leads to no event (the run is over).
    pub fn apply(&self, state: &SearchState, movement: Move) -> Option<SearchState> {
        let mut next = state.clone();
        if let Move::Strike { at, fault } = movement {
            for entry in fault.interventions(at) {
                next.sim.add_intervention(entry).ok()?;
            }
            next.faults += 1;
        }
        next.sim.step()?;
        Some(next)
    }

    /// A hash of what decides the rest of the state's run and of the faults it has left.
    pub fn fingerprint(state: &SearchState) -> u64 {
        let mut hasher = Fnv64::default();
        // Writing into a hasher cannot fail; a failure would only make the hash differ.
        let _ = state.sim.write_state(&mut hasher);
        hasher.add(&[state.faults]);
        hasher.finish()
    }
}
