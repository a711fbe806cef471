//! Why a scenario, or one of its faults, cannot be played for real by this runner.

use std::fmt;

/// Why a scenario cannot be played for real by this runner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unsupported {
    LockService(String),
    Resource(&'static str),
    Access {
        client: String,
    },
    /// A client policy other than the ones played (renewal, deadlines, …).
    Policy {
        client: String,
        what: &'static str,
    },
    /// Something of the whole scenario (clocks, the network's faults).
    Scenario(&'static str),
    /// The scenario does not pass its own check.
    Invalid(String),
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unsupported::LockService(what) => write!(
                f,
                "the lock service is {what}; this runner has the SQL row, one Redis, a Redis \
                 primary with its replica, Redlock on independent Redis nodes, and etcd's lock \
                 API"
            ),
            Unsupported::Resource(what) => write!(f, "the resource {what}"),
            Unsupported::Access { client } => write!(
                f,
                "{client} neither reads, modifies and writes nor writes blind; this runner \
                 plays those two"
            ),
            Unsupported::Policy { client, what } => write!(
                f,
                "{client} {what}; this runner plays a client that takes the lock once, or \
                 retries after a fixed delay"
            ),
            Unsupported::Scenario(what) => write!(f, "the scenario {what}"),
            Unsupported::Invalid(why) => write!(f, "the scenario does not check: {why}"),
        }
    }
}

impl std::error::Error for Unsupported {}

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
