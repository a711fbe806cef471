//! # lockstep-view
//!
//! What the Lockstep page shows, computed without a browser, grouped by feature as the app is:
//! - the playground: its state and its one reducer ([`state`]), the run and its snapshots
//!   ([`run`]), the timeline's layout ([`layout`]), the stage's geometry ([`stage`]), the
//!   builder ([`builder`]);
//! - [`link`]: every address the page reads and writes — the playground's, the page's, the
//!   embed's, the chaos lab's and the counterexample search's — on one set of mechanics;
//! - [`embed`]: the embed's excerpt of the playground, and its embed code;
//! - [`lab`]: the chaos lab's schedule, and the messages to and from its worker;
//! - [`content`]: the guided material's model and its checks;
//! - [`first_run`]: the guided start a first visit lands on, and [`glossary`]: the terms a
//!   learner may not know, their definitions and where a text uses them;
//! - [`title`]: each page's title, for the build's `<title>` and the app's `document.title`.
//!
//! What this crate must not do: touch the browser. It has no Yew, web-sys, gloo or wasm-bindgen
//! among its dependencies (`cargo xtask test` checks the tree), reads no clock, and loads no
//! file: a scenario's file reaches the reducer inside the action that needs it. The app
//! (`lockstep-app`) renders what this computes and adapts the reducers to Yew's `Reducible`.

pub mod builder;
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
pub mod run;
pub mod scenario_twin;
pub mod split;
pub mod stage;
pub mod state;
pub mod svg_number;
pub mod title;
pub mod words;

#[cfg(test)]
mod test_files;
