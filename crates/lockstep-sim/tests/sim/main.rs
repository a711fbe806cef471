//! Whole-run tests of the simulation (one test binary, one module per concern).

mod backends;
mod budget;
mod catalogue;
mod consensus_recovery;
mod extremes;
mod lease_expiry;
mod properties;
mod runs_end;
mod scenario_errors;
mod seed_verification;
mod support;
mod waiting;
