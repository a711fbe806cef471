//! The consensus service's settings, shared by every replica: how many replicas, Raft's timings,
//! and the lock's options (lock-delay, how waiters wait, a historical bug to reproduce).
//! Settings only: no state, no behaviour.

use crate::world::time::Millis;
use serde::{Deserialize, Serialize};

/// Settings shared by every replica.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsensusConfig {
    pub replicas: u8,
    pub heartbeat: Millis,
    pub election_timeout: Millis,
    pub lock_delay: Millis,
    pub waiters: Waiting,
    pub bug: KnownBug,
}

/// How clients wait for a taken lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Waiting {
    /// In a queue, each granted in turn: a release wakes exactly one (the ZooKeeper recipe,
    /// where each waiter watches its predecessor).
    FairQueue,
    /// Everyone watches the lock; a release wakes them all and they all ask again at once (the
    /// herd effect).
    Herd,
}

/// A historical bug the service can reproduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KnownBug {
    None,
    /// etcd 3.4.x (Jepsen tested 3.4.3; every 3.4 release has it): when a waiter's turn comes,
    /// the server tells it that it holds the lock without checking that its key still exists,
    /// so a waiter whose lease expired while it waited is told it holds the lock, with its own
    /// key's create revision as the token (etcd issue #11456, fixed by PR #11408 in 3.5.0).
    #[serde(rename = "etcd_3_4_3")]
    Etcd343,
}
