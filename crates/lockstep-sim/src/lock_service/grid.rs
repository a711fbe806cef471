//! A lock in an AP in-memory data grid (Hazelcast 3.8.3 before its CP subsystem, S19): every
//! member can grant the lock from its own copy and tells the others afterwards. While the
//! network is whole the copies agree; split it, and each side keeps granting on its own.

use super::cache::CacheLock;
use serde::{Deserialize, Serialize};

/// One member of the grid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GridMember {
    pub store: CacheLock,
    /// How many members the grid has (node ids `0..members`).
    pub members: u8,
}
