//! The value a client stores in a lock: the word that names one acquisition.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The value a client stores in a cache lock (`SET key value NX PX ttl`): unique per client and
/// acquisition attempt, as the Redis docs demand of the random value, so that compare-and-delete
/// removes only one's own lock. Built from the client's id and attempt number rather than drawn,
/// so nodes need no randomness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct LockValue(pub u64);

impl fmt::Display for LockValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:08x}", self.0)
    }
}
