//! # lockstep-view
//!
//! What the Lockstep page shows, computed without a browser, grouped by feature as the app is:
//! - the playground: its state and its one reducer ([`state`]), the run and its snapshots
//!   ([`run`]), the timeline's layout ([`layout`]), the stage's geometry ([`stage`]), the
//!   builder ([`builder`]), and the playground's and the page's addresses ([`link`], [`route`];
//!   [`chaos_link`], a chaos lab run named by its settings and seed);
//! - [`embed`]: the embed's address, its excerpt of the playground, and its embed code;
//! - [`lab`]: the chaos lab's and the counterexample search's addresses, the lab's schedule,
//!   and the messages to and from its worker;
//! - [`content`]: the guided material's model and its checks;
//! - [`first_run`]: the guided start a first visit lands on, and [`glossary`]: the terms a
//!   learner may not know, their definitions and where a text uses them.
//!
//! What this crate must not do: touch the browser. It has no Yew, web-sys, gloo or wasm-bindgen
//! among its dependencies (`cargo xtask test` checks the tree), reads no clock, and loads no
//! file: a scenario's file reaches the reducer inside the action that needs it. The app
//! (`lockstep-app`) renders what this computes and adapts the reducers to Yew's `Reducible`.

pub mod builder;
pub mod chaos_link;
pub mod content;
pub mod embed;
pub mod first_run;
pub mod glossary;
pub mod in_place;
pub mod lab;
pub mod layout;
pub mod link;
pub mod metrics;
pub mod recorded;
pub mod route;
pub mod run;
pub mod scenario_twin;
pub mod split;
pub mod stage;
pub mod state;
pub mod svg_number;
pub mod words;

#[cfg(test)]
mod test_files;
