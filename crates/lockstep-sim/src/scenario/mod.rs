//! Scenario files: their types (`types`), versions (`version`, `format`), reading (`parse`),
//! checking (`check`, which returns a `checked::CheckedScenario`; with `ranges` and the run `budget`'s `estimate`), errors, the cast a checked
//! scenario names, the expectations a file states, its sources (`source`, and the bibliography
//! in `sources`), strict JSON reading and pretty writing, and the built-in catalogue.
//!
//! This layer may import the world, the vocabulary and the models' settings; never the engine
//! (`sim`), the story or the analysis. Checking a run against expectations is
//! `expectation_check`'s.

pub mod budget;
pub mod cast;
pub mod catalogue;
pub mod check;
pub mod checked;
pub mod error;
pub mod estimate;
pub mod expectation;
pub mod format;
pub mod parse;
pub mod pretty;
pub mod ranges;
pub mod source;
pub mod sources;
pub mod strict_json;
pub mod types;
pub mod version;
