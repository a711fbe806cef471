//! A cache primary with an asynchronously replicated standby, failed over by a Sentinel-like
//! monitor (scenario S9). The primary answers clients at once and ships the lock key's state
//! (and its token counter) to the replica `lag` later: replication is asynchronous, so a primary
//! that crashes before shipping takes the latest lock with it.

use super::cache::CacheLock;
use crate::vocabulary::cache_entry::ReplicaWrite;
use crate::world::ids::{NodeId, TimerId};
use crate::world::time::Millis;
use serde::{Deserialize, Serialize};

/// Which part a node of the pair plays now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Primary,
    Replica,
}

/// One node of the pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replicated {
    pub role: Role,
    pub store: CacheLock,
    /// The other node of the pair.
    pub peer: NodeId,
    /// How long the monitor waits after the primary crashes before it promotes the replica.
    pub failover_after: Millis,
    /// How long a change waits on the primary before it is shipped to the replica.
    pub lag: Millis,
    /// The timer that will ship the changes made since the last shipment, if any are waiting.
    pub shipping: Option<TimerId>,
}

impl Replicated {
    /// The state the replica should hold.
    pub fn snapshot(&self) -> ReplicaWrite {
        ReplicaWrite {
            entry: self.store.entry,
            counter: self.store.counter,
        }
    }

    /// A replica takes whatever the primary shipped; anything else ignores it (a late shipment
    /// from a deposed primary must not overwrite the new primary's state).
    pub fn apply(&mut self, write: ReplicaWrite) -> bool {
        if self.role != Role::Replica {
            return false;
        }
        self.store.entry = write.entry;
        self.store.counter = write.counter;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::lock_service::TokenSource;
    use crate::vocabulary::cache_entry::CacheEntry;
    use crate::vocabulary::lock_value::LockValue;
    use crate::world::time::LocalTime;
    use crate::world::token::FencingToken;

    fn node(role: Role) -> Replicated {
        Replicated {
            role,
            store: CacheLock::new("lock".into(), TokenSource::Counter, FencingToken(0)),
            peer: NodeId(9),
            failover_after: Millis(100),
            lag: Millis(50),
            shipping: None,
        }
    }

    fn entry(owner: u16) -> CacheEntry {
        CacheEntry {
            value: LockValue(1),
            owner: NodeId(owner),
            token: Some(FencingToken(1)),
            expires_at: LocalTime(1_000),
        }
    }

    #[test]
    fn a_replica_takes_what_the_primary_ships() {
        let mut replica = node(Role::Replica);
        let write = ReplicaWrite {
            entry: Some(entry(3)),
            counter: FencingToken(1),
        };
        assert!(replica.apply(write));
        assert_eq!(replica.snapshot(), write);
    }

    #[test]
    fn a_primary_ignores_a_late_shipment_from_its_deposed_predecessor() {
        let mut primary = node(Role::Primary);
        let stale = ReplicaWrite {
            entry: Some(entry(3)),
            counter: FencingToken(7),
        };
        assert!(!primary.apply(stale));
        assert_eq!(primary.store.entry, None);
        assert_eq!(primary.store.counter, FencingToken(0));
    }
}
