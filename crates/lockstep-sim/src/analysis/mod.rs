//! Analysis over runs: a scenario's expectations checked against its run, chaos runs, the
//! counterexample search, the comparison of two services (`against`), the article's verification
//! tests, and the linearizability checker with the register history it reads.
//!
//! It may import every layer below; nothing below imports it.

pub mod against;
pub mod chaos;
pub mod expectation_check;
pub mod linearizability;
pub mod register_history;
pub mod search;
pub mod verification;
