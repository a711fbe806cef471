//! Lost updates: the resource's word for a read-modify-write that overwrote changes its writer
//! never saw.

use serde::{Deserialize, Serialize};

/// A read-modify-write that was accepted although the register changed after the writer read it:
/// the updates in between are lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnseenUpdates {
    pub read_version: u64,
    pub current_version: u64,
}
