//! Why a message was lost: the network's word, which the trace and the narration repeat.

use serde::{Deserialize, Serialize};

/// Why a message did not arrive.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Loss {
    /// The link's random loss.
    Chance,
    /// The link was cut by a partition.
    Partition,
    /// The user dropped it.
    Dropped,
    /// It arrived at a crashed node.
    ReceiverCrashed,
}
