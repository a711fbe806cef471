//! Whole-run tests of the simulation (one test binary, one module per concern).

mod catalogue;
mod properties;
mod scenario_errors;
mod seed_verification;
mod support;
