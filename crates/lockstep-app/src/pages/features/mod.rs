//! The pages and the dialog that only the full binary has (decision 33): the lessons, the
//! knowledge check, the deck, the guide, the sources, the chaos lab, the real runs and the
//! builder. Built with
//! the `full` feature, `full.rs` shows them; the story binary, built without it, has `story.rs`,
//! which shows the handover to the full binary in their place. Both offer the same names, so
//! the site (`super::site`) is written once; nothing else in the app needs to know which binary
//! it is in.

#[cfg(feature = "full")]
mod full;
#[cfg(not(feature = "full"))]
mod story;

#[cfg(feature = "full")]
pub use full::{MaterialPages, builder, use_material_pages};
#[cfg(not(feature = "full"))]
pub use story::{MaterialPages, builder, use_material_pages};

mod context;
pub use context::{BUILDER, Context};
