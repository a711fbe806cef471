//! The embed's pure half: its state kept within an excerpt ([`state`]), and the HTML an author
//! pastes to embed a moment ([`code`]); its address is [`crate::link::embed`]. The app's
//! `embed/` renders these.
//!
//! What this folder must not do: touch the browser, or reduce the playground a second way (the
//! embed's state wraps [`crate::state::Playground`]'s one reducer).

pub mod code;
pub mod state;
