//! Virtual time. The simulation never reads a wall clock: time is a number of milliseconds since
//! the scenario started, advanced only by the event queue.
//!
//! Two kinds of reading exist and are kept apart by type: [`VirtualTime`] is the simulation's
//! one true time (what an all-seeing observer would measure), [`LocalTime`] is what a node's own
//! clock says, which can run fast, slow, or jump (see `clock`).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The simulation's true time, in milliseconds since the scenario started.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct VirtualTime(pub u64);

/// A length of time in milliseconds.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Millis(pub u64);

/// What one node's own clock reads, in milliseconds. Signed: a clock jumped backwards can read
/// below zero.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct LocalTime(pub i64);

impl VirtualTime {
    pub const ZERO: VirtualTime = VirtualTime(0);

    pub fn after(self, span: Millis) -> VirtualTime {
        VirtualTime(self.0.saturating_add(span.0))
    }

    pub fn since(self, earlier: VirtualTime) -> Millis {
        Millis(self.0.saturating_sub(earlier.0))
    }
}

impl LocalTime {
    pub fn after(self, span: Millis) -> LocalTime {
        LocalTime(self.0.saturating_add(span.as_i64()))
    }

    /// Milliseconds from `earlier` to `self` by this clock; negative if the clock went backwards.
    pub fn since(self, earlier: LocalTime) -> i64 {
        self.0.saturating_sub(earlier.0)
    }
}

impl Millis {
    pub fn as_i64(self) -> i64 {
        i64::try_from(self.0).unwrap_or(i64::MAX)
    }
}

impl fmt::Display for VirtualTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t={} ms", self.0)
    }
}

impl fmt::Display for LocalTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ms", self.0)
    }
}

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ms", self.0)
    }
}
