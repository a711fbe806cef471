//! Fencing tokens: the monotonically increasing numbers a lock service hands out with each grant,
//! and that a fenced resource compares to decide whether a write comes from a zombie.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A fencing token. Ordered: a larger token means a later grant.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct FencingToken(pub u64);

impl FencingToken {
    pub fn next(self) -> FencingToken {
        FencingToken(self.0.saturating_add(1))
    }
}

impl fmt::Display for FencingToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
