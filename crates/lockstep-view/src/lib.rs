//! # lockstep-view
//!
//! What the Lockstep page shows, computed without a browser: the playground's state and its one
//! reducer ([`state`]), the run and its snapshots ([`run`]), the timeline's layout ([`layout`]),
//! the stage's geometry ([`stage`]), every address the page reads or writes ([`link`],
//! [`route`], [`embed_link`], [`lab_link`], [`search_link`]), the guided material's model and
//! its checks ([`content`]), and the chaos lab's schedule ([`lab_schedule`]).
//!
//! What this crate must not do: touch the browser. It has no Yew, web-sys, gloo or wasm-bindgen
//! among its dependencies (`cargo xtask test` checks the tree), reads no clock, and loads no
//! file: a scenario's file reaches the reducer inside the action that needs it. The app
//! (`lockstep-app`) renders what this computes and adapts the reducers to Yew's `Reducible`.

pub mod builder;
pub mod content;
pub mod counterexample_search_text;
pub mod embed_code;
pub mod embed_link;
pub mod embed_state;
pub mod lab_link;
pub mod lab_schedule;
pub mod layout;
pub mod link;
pub mod metrics;
pub mod route;
pub mod run;
pub mod scenario_twin;
pub mod search_link;
pub mod stage;
pub mod state;
pub mod svg_number;
pub mod words;
pub mod worker_protocol;

#[cfg(test)]
mod test_files;
