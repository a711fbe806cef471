//! Comparing two lock services under the same faults: a scenario run on its own service (A) and
//! its twin on another (B) — the same clients, resource, network, seed and end, B's default
//! setup, and the user's interventions carried over by *role* ("the node the holder was granted
//! by", "the primary / the leader", "a minority of the service nodes", "the link between a
//! client and the service"), never by node name. Where B has no node in a role, the twin says so
//! in words and runs without that intervention.
//!
//! ```
//! use lockstep_sim::analysis::against::against;
//! use lockstep_sim::analysis::chaos::ChaosBackend;
//! use lockstep_sim::scenario::catalogue;
//!
//! let scenario = catalogue::find("s10-redlock-clock-jump").unwrap().load().unwrap();
//! let twin = against(&scenario, &[], ChaosBackend::Consensus).unwrap();
//! println!("{}", twin.verdict_line());
//! ```
//!
//! To step both runs side by side, build A as `Sim::with_log(&scenario_a, scenario_a.seed, &log)`
//! and B as `Sim::new(&twin.scenario_b)`; taking back an intervention is calling [`against`]
//! again with the shorter log. Cost: A runs once; B is rebuilt only where a carried intervention
//! needs B's roles (a service node or a message) after another was mapped — the article's chaos
//! run (229 interventions, 180 s) against consensus took 2.9 s in a debug test build on the
//! shared 2-core machine (11.3 s when B was rebuilt after every mapped intervention).
//!
//! What this module must not do: change how either run is simulated (both are plain [`Sim`]
//! runs of plain scenarios: `scenario_b` replays with `lockstep-cli run`), draw randomness, or
//! know any scenario by name.
//!
//! [`Sim`]: crate::Sim

mod carry;
mod role;
mod twin;
mod verdict;

pub use carry::{Carried, Carry, sentence_name};
pub use role::{GrantsHolder, ServiceRole, ServiceView, Target};
pub use twin::{AgainstError, Twin, against, service_of};
pub use verdict::{SideVerdict, verdict_line};

#[cfg(test)]
mod tests;
