//! Whole-run tests of the simulation (one test binary, one module per concern).

mod backends;
mod catalogue;
mod consensus_recovery;
mod data;
mod expectations;
mod lease_expiry;
mod properties;
mod scenario_errors;
mod scenario_mutations;
mod seed_verification;
mod support;
mod waiting;
