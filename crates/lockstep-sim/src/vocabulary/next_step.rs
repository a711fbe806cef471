//! What a client does once it holds the lock: the client's word, which the trace repeats.

use crate::world::time::Millis;
use serde::{Deserialize, Serialize};

/// What a client does right after it gets the lock (or starts, without one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NextStep {
    Read,
    Work(Millis),
}
