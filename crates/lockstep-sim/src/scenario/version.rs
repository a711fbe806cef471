//! The versions of the scenario format this build writes and reads (`docs/scenario-format.md`,
//! "Versions"). Constants only, so that the types, the errors and the reader can all name them.

/// The format version this build writes.
pub const FORMAT_VERSION: u32 = 2;
/// The oldest format version this build reads.
pub const OLDEST_FORMAT: u32 = 1;

/// Whether this build reads files of `format`.
pub fn readable(format: u32) -> bool {
    (OLDEST_FORMAT..=FORMAT_VERSION).contains(&format)
}
