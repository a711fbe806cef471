//! Why a run could not be set up or finished: its own module, since both the run (`run.rs`)
//! and the clients' connections it makes (`locks.rs`) fail with it. A client's failed request
//! is no such error: it is recorded unanswered (`lock::RequestError`).

use crate::link::LinkError;
use crate::lock::RequestError;
use crate::server::ServerError;
use thiserror::Error;

/// Why a run could not be set up or finished (a client's failed request is no such error: it
/// is recorded, and listed in the run's failures).
#[derive(Debug, Error)]
pub enum RunError {
    /// PostgreSQL, as the register or the SQL row's lock: setting up, connecting, the final
    /// read or the register's log.
    #[error("PostgreSQL: {0}")]
    Postgres(#[from] ::postgres::Error),
    /// Redis, clearing the lock left by the run before, or connecting a client.
    #[error("Redis: {0}")]
    Redis(#[from] redis::RedisError),
    #[error(transparent)]
    Server(#[from] ServerError),
    #[error(transparent)]
    Link(#[from] LinkError),
    /// Connecting a client to the lock service (Redlock's nodes).
    #[error(transparent)]
    Request(#[from] RequestError),
    /// The plan's lock service needs servers that were not started: which.
    #[error("{0}")]
    NotStarted(&'static str),
}
