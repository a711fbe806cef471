//! The nodes' models: clients, the lock services (one design per module) and the protected
//! resource. Each is a pure state machine behind the node contract (`world::node`).
//!
//! It may import the world and the vocabulary; never the scenario, the engine, the story or the
//! analysis. A model never reads another node's state.

pub mod client;
pub mod lock_service;
pub mod resource;
