//! # lockstep (the app)
//!
//! The browser front end of Lockstep: a Yew view over `lockstep-sim`. A timeline of lanes
//! (clients, lock service nodes, the resource) shows leases, beliefs, pauses, messages, writes
//! and broken invariants; the user steps, scrubs, plays, and acts on what they see — pause a
//! client, expire a lease, cut a link, hold a message — and every action becomes a logged
//! intervention that replays deterministically. The moment lives in the URL.
//!
//! The app changes the simulation only through one reducer (`lockstep_view::state`, adapted to
//! Yew in [`state`]); components render state and dispatch its actions. It must not compute
//! anything the simulation knows (who holds the lock, whether a write is stale), and what can be
//! computed without a browser lives in `lockstep-view`. By feature: `app` (the route switch),
//! `pages` (the site's pages), [`components`] (shared widgets), [`embed`], [`lab`], `hooks`
//! (one hook a file), and [`platform`] (fetch, the loaded files, the browser's services), which
//! hands results to callbacks and never names the playground's actions; `page_files` says which
//! files a page draws from, for [`start`] and the build's render.

mod app;
pub mod components;
pub mod embed;
mod hooks;
pub mod lab;
mod link;
mod page_files;
mod pages;
pub mod platform;
#[cfg(feature = "ssr")]
pub mod render;
pub mod start;
pub mod state;

pub use app::{App, AppProps, EmbedApp};
