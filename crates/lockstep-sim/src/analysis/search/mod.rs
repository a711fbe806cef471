//! Counterexample search: a bounded, exhaustive, breadth-first exploration of the choices a run
//! of a small scenario leaves open — which fault strikes (a pause, a partition, a clock jump, a
//! message held back), on which node or message, and when, at the steps of a grid — with state
//! hashing to skip states already seen. It returns the shortest run that breaks a chosen
//! invariant, as a scenario that replays it, or says that none exists within the bounds and how
//! many states it explored.
//!
//! The search drives the same [`crate::Sim`] a learner steps through: a fault is struck by
//! adding an intervention for a moment after now ([`crate::Sim::add_intervention`]), and states
//! are told apart by [`crate::Sim::write_state`]. Nothing here changes how a run goes.
//!
//! ```
//! use lockstep_sim::analysis::search::{Bounds, FaultBudget, Search, SearchConfig, SearchStatus};
//! use lockstep_sim::scenario::catalogue;
//! use lockstep_sim::vocabulary::invariant::Invariant;
//! use lockstep_sim::world::time::Millis;
//!
//! let mut base = catalogue::find("s1-gc-pause-unfenced").unwrap().load().unwrap();
//! base.interventions.clear(); // the search chooses the faults
//! base.expectations.clear();
//! let config = SearchConfig {
//!     base,
//!     invariant: Invariant::NoStaleWrite,
//!     faults: FaultBudget { max: 1, pauses: vec![Millis(2_000)], ..FaultBudget::default() },
//!     bounds: Bounds { step_ms: Millis(100), max_events: 40 },
//! };
//! let mut search = Search::new(&config).unwrap();
//! let SearchStatus::Found(found) = search.run() else { panic!("a pause breaks it") };
//! assert_eq!(found.scenario.interventions.len(), 1);
//! ```

mod config;
mod counterexample;
mod engine;
mod fault;
mod fingerprint;
pub mod hunt;
mod space;

pub use config::{
    Bounds, FaultBudget, MAX_FAULTS, MAX_SEARCH_CLIENTS, SearchConfig, SearchError, ServiceFaults,
};
pub use counterexample::Counterexample;
pub use engine::{Search, SearchStatus};
pub use fault::Fault;
pub use space::{Move, SearchSpace, SearchState};
