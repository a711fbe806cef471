//! # lockstep-sim
//!
//! The deterministic simulation at the heart of Lockstep: a lock service, clients and a protected
//! resource run as pure state machines over virtual time, with faults injected as timestamped
//! interventions. The same scenario, seed and intervention log always produce the same
//! [`engine::trace::TraceEvent`]s, natively and in WebAssembly.
//!
//! Main types: [`Scenario`] (what to run), [`Sim`] (the engine), [`engine::trace::TraceEvent`] (what
//! happened), [`vocabulary::happening::Happening`] (what one event did, in domain terms),
//! [`vocabulary::invariant::Invariant`] (what must hold).
//!
//! The modules are layers, each importing only those before it: `world`, `vocabulary`, `models`,
//! `scenario`, `engine`, `story`, `analysis` (their docs say what each may import).
//!
//! ```
//! use lockstep_sim::{Sim, scenario::catalogue};
//!
//! let scenario = catalogue::find("s2-gc-pause-fenced").unwrap().load().unwrap();
//! let mut sim = Sim::new(&scenario).unwrap();
//! sim.run_to_end();
//! let rejected = sim.trace().iter().any(|e| e.happening.kind() == "write_rejected");
//! assert!(rejected, "the zombie's write with the old token is fenced off");
//! ```
//!
//! What this crate must not do: depend on anything web (no yew, web-sys, js-sys, wasm-bindgen,
//! gloo, getrandom), read a wall clock, draw randomness from anywhere but [`world::rng::SimRng`], or
//! iterate a hash map (`clippy.toml` enforces these). The UI is a view over it.
//!
//! Features, both default, both off for the crates that depend on it through the workspace
//! (`default-features = false`): `embedded-catalogue` compiles every scenario file in, for the
//! CLI and the tests (the page fetches them); `history-check` compiles the linearizability
//! checker and the register history, which only the tests use.

#![forbid(unsafe_code)]
// No function over one screen (`too-many-lines-threshold` in clippy.toml). Here and in the test
// and bench roots, because a crate whose lints come from the workspace cannot add its own.
#![warn(clippy::too_many_lines)]

pub mod analysis;
pub mod engine;
pub mod models;
pub mod scenario;
pub mod story;
#[cfg(feature = "testing")]
pub mod testing;
pub mod vocabulary;
pub mod world;

pub use engine::sim::Sim;
pub use scenario::types::Scenario;
