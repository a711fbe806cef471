//! The engine: `Sim` runs a checked scenario over virtual time from its event queue, records the
//! trace, checks the invariants as it goes and stops a run at its budget.
//!
//! It may import the world, the vocabulary, the models and the scenario; never the story or the
//! analysis, which read what it records.

pub mod invariant;
pub mod queue;
pub mod sim;
pub mod trace;
