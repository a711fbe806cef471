//! The evidence a finding carries: the moment two writers overlapped, the write that diverged,
//! the increment that was lost. Plain data, shared by the checks that find it and by [`Finding`],
//! so that neither imports the other.
//!
//! [`Finding`]: super::finding::Finding

use crate::world::time::VirtualTime;

/// The first moment at which two clients were accepted writers at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TwoWriters {
    /// The moment: the trace index of its event, and its virtual time.
    pub event: usize,
    pub at: VirtualTime,
    /// The client whose accepted write was already under way.
    pub earlier: String,
    /// The client whose accepted write began at this moment.
    pub later: String,
}

/// The first accepted write that is not what applying the accepted increments one after another
/// gives: it overwrote increments its writer never read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// Which accepted write, counting from 1 in the order the resource accepted them.
    pub nth: u32,
    pub writer: String,
    pub wrote: i64,
    /// What the write would have set had the increments been applied one after another.
    pub serial: i64,
}

/// An increment a client was told was applied, and that the final value does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LostIncrement {
    pub client: String,
    /// The register's version the client was told its write made.
    pub version: u64,
}
