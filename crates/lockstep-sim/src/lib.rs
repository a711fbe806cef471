//! # lockstep-sim
//!
//! The deterministic simulation at the heart of Lockstep: a lock service, clients and a protected
//! resource run as pure state machines over virtual time, with faults injected as timestamped
//! interventions. The same scenario, seed and intervention log always produce the same
//! [`trace::TraceEvent`]s, natively and in WebAssembly.
//!
//! Main types: [`Scenario`] (what to run), [`Sim`] (the engine), [`trace::TraceEvent`] (what
//! happened), [`vocabulary::happening::Happening`] (what one event did, in domain terms),
//! [`invariant::Invariant`] (what must hold).
//!
//! ```
//! use lockstep_sim::{catalogue, Sim};
//!
//! let scenario = catalogue::find("s2-gc-pause-fenced").unwrap().load().unwrap();
//! let mut sim = Sim::new(&scenario).unwrap();
//! sim.run_to_end();
//! let rejected = sim.trace().iter().any(|e| e.happening.kind() == "write_rejected");
//! assert!(rejected, "the zombie's write with the old token is fenced off");
//! ```
//!
//! What this crate must not do: depend on anything web (no yew, web-sys, js-sys, wasm-bindgen,
//! gloo, getrandom), read a wall clock, draw randomness from anywhere but [`rng::SimRng`], or
//! iterate a hash map (`clippy.toml` enforces these). The UI is a view over it.

#![forbid(unsafe_code)]

pub mod against;
pub mod budget;
pub mod catalogue;
pub mod chaos;
pub mod client;
pub mod clock;
pub mod describe;
pub mod expectation_check;
pub mod ids;
pub mod intervention;
pub mod invariant;
pub mod linearizability;
pub mod lock_service;
pub mod network;
pub mod node;
pub mod outcome;
pub mod pretty;
pub mod queue;
pub mod register_history;
pub mod resource;
pub mod rng;
pub mod scenario;
pub mod scenario_source;
pub mod search;
pub mod shared_log;
pub mod sim;
pub mod sources;
pub mod strict_json;
pub mod time;
pub mod token;
pub mod trace;
pub mod trace_import;
pub mod verification;
pub mod vocabulary;

pub use scenario::types::Scenario;
pub use sim::Sim;
