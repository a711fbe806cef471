//! # lockstep-real
//!
//! The reality check: a scenario of the catalogue run against a real lock service and a real
//! resource on this machine's loopback, with real clients that follow the scenario's clients,
//! and what they observed compared with what the simulation says happens.
//!
//! - [`plan`]: what each client does and when, in real milliseconds, read from a scenario; a
//!   scenario this runner cannot play for real is refused with the reason.
//! - [`lock`]: a real lock service as the clients use it; [`postgres`] (the article's lock row,
//!   and the register every run writes to) and [`redis`] (one server, `SET NX PX`; a primary
//!   and its replica; Redlock over independent nodes), each with a
//!   server started for the run (Debian's package, loopback only) and stopped after.
//! - [`etcd`]: a three-member etcd cluster started for each run, and each client's session on
//!   it (a lease kept alive, the lock API's `Lock`); [`link`]: a loopback link from a client to
//!   one server that can be cut (Redlock's nodes, etcd's members) or slowed one way (a slow
//!   link to the resource; a replica's replication).
//! - [`servers`]: the servers the runs of a session share; [`per_run`]: those a run starts for
//!   itself (a primary and replica it crashes, Redlock's nodes whose clocks it jumps);
//!   [`server`]: what the servers share (why one could not start, a free port); [`started`]:
//!   the servers one plan needs, started for it.
//! - [`run`]: the clients ([`player`], renewing as the plan says: [`renewing`]), each on a
//!   thread of its own with its lock ([`locks`]), on one clock, and the faults the plan makes
//!   ([`faults`]): on the lock service, its links, and the clients themselves (a crash).
//! - [`record`]: what the clients saw, in milliseconds from the start, recorded as a history
//!   in Lockstep's recorded-history format (`lockstep_sim::story::recorded`); [`applied`]:
//!   when each write took effect, from the register's own log.
//! - [`conformance`]: the cases, each run several times and compared with the simulation, as
//!   a table (`cargo xtask real` prints it, through the `lockstep-real` binary).
//! - [`convert`]: an example converter from Redis `MONITOR` output and an application log to the
//!   recorded-history format, for a user's own system.
//! - [`outcome`]: the outcome class (which writes the resource accepted or refused, with which
//!   tokens, and the final value), of a real run and of the simulation's, to compare.
//!
//! Each concern fails with its own typed error, whose words the CLI and the suite print:
//! [`server::ServerError`] (a server not started, or not made to do what a fault says),
//! [`link::LinkError`], [`lock::RequestError`] (a client's request, recorded unanswered),
//! [`plan::Unsupported`] (the plan), [`faults::FaultError`], [`run_error::RunError`] (a run not set
//! up or finished), and [`conformance::CaseError`] (a case of the suite).
//!
//! What this crate must not do: run in the page (it talks to servers and reads the wall clock),
//! or decide anything about the simulation (it only reads `lockstep-sim`'s traces).

pub mod applied;
pub mod conformance;
pub mod convert;
pub mod etcd;
pub mod faults;
pub mod link;
pub mod lock;
pub mod locks;
pub mod outcome;
pub mod per_run;
pub mod plan;
pub mod player;
pub mod postgres;
pub mod record;
pub mod redis;
pub mod renewing;
pub mod run;
pub mod run_error;
pub mod server;
pub mod servers;
pub mod started;
