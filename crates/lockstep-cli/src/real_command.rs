//! `lockstep-cli real <scenario> --service postgres|redis|redis-failover|redlock|etcd [--runs N] [--record
//! FILE]`: the
//! scenario played by real clients against a real lock service and a real PostgreSQL register
//! on loopback (started here, stopped after: `lockstep-real`), its verdicts printed beside the
//! simulation's, and the recorded history written to FILE. Exits 1 when a run's outcome class
//! differs from the simulation's.
//!
//! This module is the command's arguments, which every build parses (the command is in the help
//! either way); the play itself is `real_play.rs`, in builds with the `real` feature only.
//! `main.rs` sends the command there, or, in a build without it, says how to get one.

use crate::source::Source;
use clap::{Args, ValueEnum};

#[derive(Debug, PartialEq, Eq, Args)]
pub struct RealArgs {
    /// A scenario file (`.json`) or a built-in id.
    #[arg(value_name = "SCENARIO", value_parser = Source::from_argument)]
    pub source: Source,
    /// The real lock service: the scenario's must be this one.
    #[arg(long, value_enum)]
    pub service: RealService,
    /// How many times to play it.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = crate::args::whole(1..=100u32))]
    pub runs: u32,
    /// Where to write the first run's recorded history.
    #[arg(long, value_name = "FILE")]
    pub record: Option<String>,
}

/// The real services this build plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RealService {
    /// The article's lock row in PostgreSQL.
    Postgres,
    /// One Redis: `SET NX PX`.
    Redis,
    /// A Redis primary and its replica, replicating late; failover promotes the replica.
    RedisFailover,
    /// Redlock on independent Redis nodes, each client linked to each node on its own.
    Redlock,
    /// A three-member etcd cluster: a lease kept alive, and the lock API.
    Etcd,
}
