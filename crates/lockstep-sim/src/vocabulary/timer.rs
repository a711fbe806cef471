//! What a timer is for and how long it runs: the words a node uses to set a timer, which the
//! trace repeats when it fires.

use crate::world::time::Millis;
use serde::{Deserialize, Serialize};

/// What a timer is for, so that the trace can say why a node woke up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimerKind {
    /// A client begins its job.
    Start,
    /// A client has finished the work it does while holding the lock.
    WorkDone,
    /// A client tries to acquire again after being refused.
    Retry,
    /// A client that checked its lease now writes (the gap a pause can fall into).
    WriteNow,
    /// A client's request went unanswered for too long.
    RequestTimeout,
    /// A client's renewal interval (TTL/3) has passed.
    Renew,
    /// A Redlock client stops waiting for the nodes that have not answered.
    RoundTimeout,
    /// A client's local deadline may have passed (no renewal acknowledged in time).
    LocalDeadline,
    /// A consensus leader's heartbeat.
    Heartbeat,
    /// A consensus follower checks whether it has heard from a leader lately.
    ElectionCheck,
    /// A lock-delay has passed: the lock may be granted again.
    LockDelayOver,
    /// A primary ships its waiting changes to its replica.
    Ship,
    /// The lock service notices that a lease has run out. Expiry itself needs no event (the
    /// row's `expires_at` decides), but a learner must see the moment it happens.
    LeaseExpiry,
}

/// How long a timer runs, by the setting node's own clock. A random span is drawn by the
/// simulation from the run's PRNG, never by the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimerSpan {
    Fixed(Millis),
    Between(Millis, Millis),
}
