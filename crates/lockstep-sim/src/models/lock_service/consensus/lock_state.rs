//! The lock layer's values, as a replica keeps them: the lock table, the leader's sessions and
//! unanswered `Lock` calls, and whether it answers for the lock yet. Plain data: what changes
//! them is `commit.rs`, `sessions.rs`, `waiters.rs`, `lessor.rs` (kept apart so that those
//! modules import these values and `Replica`, and `Replica` imports nothing back).

use crate::vocabulary::lock_value::LockValue;
use crate::vocabulary::raft::LockKey;
use crate::world::ids::NodeId;
use crate::world::time::LocalTime;
use crate::world::token::FencingToken;
use serde::{Deserialize, Serialize};

/// The lock as the committed log says it is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockTable {
    /// Every contender's key, lowest revision first: the first one holds the lock.
    pub keys: Vec<LockKey>,
    /// The highest revision ever given to a key.
    pub revision: FencingToken,
}

impl LockTable {
    /// The key that holds the lock: the one with the lowest revision.
    pub fn holder(&self) -> Option<LockKey> {
        self.keys.first().copied()
    }

    pub fn key_of(&self, client: NodeId) -> Option<LockKey> {
        self.keys.iter().copied().find(|k| k.client == client)
    }
}

/// Whether a leader answers for the lock yet (etcd's lessor: primary once promoted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lessor {
    /// Not a leader, or a leader whose first entry has not committed: it keeps no sessions and
    /// answers no `Lock` call.
    Standby,
    /// A leader whose own entry has committed: it keeps sessions and answers for the lock.
    Primary,
}

/// A client's session (etcd's lease), as the leader keeps it: over once `until` is past.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lease {
    pub client: NodeId,
    pub until: LocalTime,
}

/// A client's `Lock` call the leader has not answered yet: it waits for every key below its own
/// (`revision`) to go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiter {
    pub client: NodeId,
    pub value: LockValue,
    pub revision: FencingToken,
}
