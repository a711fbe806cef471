//! The world the nodes live in: virtual time, ids, local clocks, the seeded PRNG, fencing tokens,
//! the shared append-only log, the node contract, the network and interventions.
//!
//! `node`, `network` and `intervention` may import the vocabulary (they carry its messages and
//! events), which imports only this layer's plain values (`time`, `ids`, `token`); nothing here
//! imports a model, the scenario or the engine.

pub mod clock;
pub mod ids;
pub mod intervention;
pub mod network;
pub mod node;
pub mod rng;
pub mod shared_log;
pub mod time;
pub mod token;
