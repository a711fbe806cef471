//! A position of the lesson player, as the material's checks see it: every event through one,
//! or every event before one. The material's checks and the claims they test both stand the
//! page there.
//!
//! What this module must not do: know what a claim or a check is.

/// A position of the lesson player: what the page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// Every event up to and including this one (a step after its reveal).
    Through(usize),
    /// Every event before this one (a step while its question is open).
    Before(usize),
}

impl Shown {
    /// The index of the last event shown, if any is.
    pub fn last(self) -> Option<usize> {
        match self {
            Shown::Through(event) => Some(event),
            Shown::Before(event) => event.checked_sub(1),
        }
    }
}
