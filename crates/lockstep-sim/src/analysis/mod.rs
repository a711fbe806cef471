//! Analysis over runs: a scenario's expectations checked against its run, chaos runs, the
//! counterexample search, the comparison of two services (`against`), the article's verification
//! tests, and the linearizability checker with the register history it reads.
//!
//! The linearizability checker and the register history are behind the `history-check` feature
//! (on by default, so the crate's own tests have them): only those tests use them, and the page,
//! which depends on this crate without default features, does not compile them.
//!
//! It may import every layer below; nothing below imports it.

pub mod against;
pub mod chaos;
pub mod expectation_check;
#[cfg(feature = "history-check")]
pub mod linearizability;
pub mod recorded_verdicts;
#[cfg(feature = "history-check")]
pub mod register_history;
pub mod search;
pub mod setup_check;
pub mod verification;
