//! A cache lock's key, and what a primary ships to its replica: the words of the cache lock
//! services (see `lock_service::cache` and `lock_service::replicated`).

use crate::vocabulary::lock_value::LockValue;
use crate::world::ids::NodeId;
use crate::world::time::LocalTime;
use crate::world::token::FencingToken;
use serde::{Deserialize, Serialize};

/// What the primary ships to its replica: the key's new state and the token counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplicaWrite {
    pub entry: Option<CacheEntry>,
    pub counter: FencingToken,
}

/// One key in a single cache node, set with `SET key value NX PX ttl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheEntry {
    pub value: LockValue,
    /// Who set it (the cache itself only knows the value; kept for display and invariants).
    pub owner: NodeId,
    pub token: Option<FencingToken>,
    pub expires_at: LocalTime,
}
