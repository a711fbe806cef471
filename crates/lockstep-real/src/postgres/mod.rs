//! PostgreSQL as the lock service and the resource: the article's `distributed_locks` row and
//! its conditional `UPDATE … RETURNING fencing_token`, and a register whose write carries the
//! highest-token rule in its own `WHERE` (or no rule, with fencing off).

mod article;
mod run;
mod server;

pub use run::run;
pub use server::{PostgresServer, ServerError};
