//! What the clients of a real run saw, each at the milliseconds from the run's start at which
//! they saw it.

/// One thing a client saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    pub at_ms: u64,
    pub client: String,
    pub seen: Seen,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seen {
    /// The lock service granted the lock, with this token if it issues tokens.
    Granted(Option<u64>),
    /// The lock is held elsewhere: no row came back.
    HeldElsewhere,
    /// The resource's value, read.
    Read(i64),
    /// The resource applied the write carrying this token (none from a service without tokens).
    WriteAccepted { token: Option<u64>, value: i64 },
    /// The resource refused the write carrying this token (no row matched).
    WriteRejected { token: Option<u64> },
    /// The client gave the lock back: whether anything was released.
    Released(bool),
    /// The client could not talk to the server.
    Failed(String),
}

/// Everything the clients saw, in the order they saw it, and the resource's value at the end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observed {
    pub observations: Vec<Observation>,
    pub final_value: i64,
}
