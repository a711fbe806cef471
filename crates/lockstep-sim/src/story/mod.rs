//! The story of a run, in words: one sentence per event (`describe`), how the run ended at the
//! resource (`outcome`), the trace's exported and imported JSON, numbers in words (`numbers`),
//! and an intervention in words (`intervention`).
//!
//! It may import everything below it (world, vocabulary, models, scenario, engine); it decides
//! nothing about a run, and the engine never needs it.

pub mod describe;
pub mod export;
pub mod intervention;
pub mod numbers;
pub mod outcome;
pub mod recorded;
pub mod trace_import;
