//! The stage: the cast as boxes (clients, the lock service's nodes, the resource — the
//! timeline's lanes) with the messages on their way travelling between them, at the position
//! the timeline shows. Where the timeline shows the whole story over time, the stage shows one
//! moment of it: who the lock service says holds the lock, what each client believes and the
//! token it was told, which processes are paused or down, and what is on the wire.
//!
//! Pure: the placement of the boxes ([`geometry`]), what each node's state says ([`cast`],
//! read from the simulation as the inspector reads it), the messages in flight ([`flights`],
//! from the layout's arrows with the timeline's rule, so the two agree), the words on the boxes
//! ([`wording`]) and all of it together at one position ([`scene`]). No DOM here; the
//! component `components::stage` only turns a [`scene::Scene`] into tags.

pub mod cast;
pub mod flights;
pub mod geometry;
pub mod scene;
pub mod wording;

#[cfg(test)]
mod tests;
