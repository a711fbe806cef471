//! The glossary: the words a learner may not know (lease, fencing token, GC pause, the sources'
//! names…), each defined in a sentence or two ([`terms`]), and the split of a text into plain
//! parts and the terms it uses ([`split`]), which the app's `Term` marks and defines on hover,
//! focus and tap, and where that definition opens so it stays inside the window ([`place`]).
//! Pure data, text and geometry: it knows nothing of how a term is drawn.

mod placement;
mod split;
mod terms;

pub use placement::{Placement, TermBox, Vertical, place};
pub use split::{Part, split};
pub use terms::{ENTRIES, Entry, Term};

#[cfg(test)]
mod tests;
