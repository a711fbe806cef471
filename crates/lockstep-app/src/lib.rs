//! # lockstep (the app)
//!
//! The browser front end of Lockstep: a Yew view over `lockstep-sim`. A timeline of lanes
//! (clients, lock service nodes, the resource) shows leases, beliefs, pauses, messages, writes
//! and broken invariants; the user steps, scrubs, plays, and acts on what they see — pause a
//! client, expire a lease, cut a link, hold a message — and every action becomes a logged
//! intervention that replays deterministically. The moment lives in the URL.
//!
//! The app changes the simulation only through one reducer ([`state::Playground`]); components
//! render state and dispatch [`state::Action`]s. It must not compute anything the simulation
//! knows (who holds the lock, whether a write is stale): it reads the trace and the node states.
//! Geometry comes from the pure [`layout`] module; browser services are in `browser` and `hooks`;
//! scenario files and the guided material are fetched when first needed ([`library`]).

mod app;
pub mod components;
pub mod embed;
mod hooks;
pub mod lab;
mod link;
pub mod platform;
pub mod state;

pub use app::App;
