//! Why a scenario, or one of its faults, cannot be played for real by this runner.

use std::fmt;
use thiserror::Error;

/// Why a scenario cannot be played for real by this runner (the plan's error).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Unsupported {
    #[error(
        "the lock service is {0}; this runner has the SQL row, one Redis, a Redis primary with \
         its replica, Redlock on independent Redis nodes, and etcd's lock API"
    )]
    LockService(String),
    #[error("the resource {0}")]
    Resource(&'static str),
    #[error(
        "{client} neither reads, modifies and writes nor writes blind; this runner plays those \
         two"
    )]
    Access { client: String },
    /// A client policy other than the ones played (renewal, deadlines, …).
    #[error(
        "{client} {what}; this runner plays a client that takes the lock once, or retries \
         after a fixed delay"
    )]
    Policy { client: String, what: &'static str },
    /// Something of the whole scenario (clocks, the network's faults).
    #[error("the scenario {0}")]
    Scenario(&'static str),
    /// The scenario does not pass its own check.
    #[error("the scenario does not check: {0}")]
    Invalid(String),
}

/// A fault of the scenario this runner cannot make: named, and the run goes without it (its
/// outcome may then differ from the simulation's, which makes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unmade {
    pub at_ms: u64,
    /// The intervention, as the scenario's file says it.
    pub what: String,
    /// Why the runner does not make it.
    pub why: &'static str,
}

impl fmt::Display for Unmade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the intervention at {} ms, {}, is not made for real ({}): the run goes without it",
            self.at_ms, self.what, self.why
        )
    }
}
