//! The embed's pure half: its address ([`link`]), its state kept within an excerpt ([`state`]),
//! and the HTML an author pastes to embed a moment ([`code`]). The app's `embed/` renders these.
//!
//! What this folder must not do: touch the browser, or reduce the playground a second way (the
//! embed's state wraps [`crate::state::Playground`]'s one reducer).

pub mod code;
pub mod link;
pub mod state;
