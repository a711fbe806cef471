//! Whole-run tests of the simulation (one test binary, one module per concern).

mod backends;
mod catalogue;
mod consensus_recovery;
mod lease_expiry;
mod properties;
mod scenario_errors;
mod support;
mod verification;
mod waiting;
