//! Scenario files: their types (`types`), versions (`version`, `format`), reading (`parse`),
//! checking (`check`, with `ranges` and the budget `estimate`), errors, the cast a checked
//! scenario names, and the expectations a file states.
//!
//! This layer may import the world, the vocabulary and the models' settings; never the engine
//! (`sim`), the story or the analysis. Checking a run against expectations is
//! `expectation_check`'s.

pub mod cast;
pub mod check;
pub mod error;
pub mod estimate;
pub mod expectation;
pub mod format;
pub mod parse;
pub mod ranges;
pub mod types;
pub mod version;
