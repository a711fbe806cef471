//! The breadth-first search: explores the [`SearchSpace`] level by level (a level is one more
//! trace event), skips every state whose fingerprint it has seen, and stops at the first state
//! whose latest event breaks the invariant — so the run it returns is a shortest one. It runs in
//! slices ([`Search::advance`]) so that a worker can report progress between them and stop.
//!
//! It must not read a clock or iterate a hash map: the same configuration gives the same
//! states, the same order and the same counterexample everywhere.

use super::config::{SearchConfig, SearchError};
use super::counterexample::Counterexample;
use super::space::{Move, SearchSpace, SearchState};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, VecDeque};

/// Where a search stands. Externally tagged in JSON (`{"found": {…}}`): an internally tagged
/// enum is read through serde's buffered `Content`, whose code is repeated for every type inside
/// (a counterexample holds a whole scenario) and made the page's wasm larger.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchStatus {
    /// Still going: `states` distinct states found so far, the deepest at `depth` events,
    /// `frontier` of them still to expand.
    Running {
        states: u64,
        depth: usize,
        frontier: usize,
    },
    Found(Box<Counterexample>),
    /// Every state within the bounds explored, and none breaks the invariant.
    Exhausted {
        states: u64,
        depth: usize,
    },
}

/// A search in progress.
pub struct Search {
    config: SearchConfig,
    space: SearchSpace,
    frontier: VecDeque<SearchState>,
    seen: BTreeSet<u64>,
    /// The state whose moves are being tried, so that a slice can end between two moves.
    expanding: Option<Expansion>,
    states: u64,
    depth: usize,
    done: Option<SearchStatus>,
}

struct Expansion {
    state: SearchState,
    moves: Vec<Move>,
    next: usize,
}

impl Search {
    pub fn new(config: &SearchConfig) -> Result<Search, SearchError> {
        let (space, first) = SearchSpace::new(config)?;
        let mut seen = BTreeSet::new();
        seen.insert(SearchSpace::fingerprint(&first));
        Ok(Search {
            config: config.clone(),
            space,
            frontier: VecDeque::from([first]),
            seen,
            states: 1,
            depth: 0,
            expanding: None,
            done: None,
        })
    }

    /// Explores until `max_states` more states are found (at least one), the invariant breaks,
    /// or nothing is left.
    pub fn advance(&mut self, max_states: u64) -> SearchStatus {
        if let Some(done) = &self.done {
            return done.clone();
        }
        let stop_at = self.states.saturating_add(max_states.max(1));
        while self.states < stop_at {
            let Some(movement) = self.next_move() else {
                return self.finish(SearchStatus::Exhausted {
                    states: self.states,
                    depth: self.depth,
                });
            };
            let Some(expansion) = &self.expanding else {
                continue;
            };
            let Some(next) = self.space.apply(&expansion.state, movement) else {
                continue;
            };
            if !self.seen.insert(SearchSpace::fingerprint(&next)) {
                continue;
            }
            self.states += 1;
            self.depth = self.depth.max(next.events());
            if next.breaks(self.space.invariant()) {
                let found = Counterexample::of(&self.config, &next.sim, self.states);
                return self.finish(SearchStatus::Found(Box::new(found)));
            }
            self.frontier.push_back(next);
        }
        SearchStatus::Running {
            states: self.states,
            depth: self.depth,
            frontier: self.frontier.len(),
        }
    }

    /// The next move to try: the rest of the state being expanded, else the moves of the next
    /// state of the frontier. `None` when the frontier is empty.
    fn next_move(&mut self) -> Option<Move> {
        loop {
            if let Some(expansion) = &mut self.expanding
                && let Some(&movement) = expansion.moves.get(expansion.next)
            {
                expansion.next += 1;
                return Some(movement);
            }
            let state = self.frontier.pop_front()?;
            let moves = self.space.moves(&state);
            self.expanding = Some(Expansion {
                state,
                moves,
                next: 0,
            });
        }
    }

    /// Where the search stands, without exploring.
    pub fn status(&self) -> SearchStatus {
        self.done.clone().unwrap_or(SearchStatus::Running {
            states: self.states,
            depth: self.depth,
            frontier: self.frontier.len(),
        })
    }

    /// Runs to the end: a counterexample, or none within the bounds.
    pub fn run(&mut self) -> SearchStatus {
        loop {
            let status = self.advance(u64::MAX);
            if !matches!(status, SearchStatus::Running { .. }) {
                return status;
            }
        }
    }

    fn finish(&mut self, status: SearchStatus) -> SearchStatus {
        self.frontier.clear();
        self.expanding = None;
        self.done = Some(status.clone());
        status
    }
}
