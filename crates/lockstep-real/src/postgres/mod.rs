//! PostgreSQL as the lock service and as the resource: the article's `distributed_locks` row
//! and its conditional `UPDATE … RETURNING fencing_token`, and a register whose write carries
//! the highest-token rule in its own `WHERE` (or no rule, with fencing off).

mod article;
mod lock;
mod resource;
mod server;

pub use lock::SqlRowLock;
pub use resource::{LoggedWrite, Register, logged_writes, set_up, sql_row_lock};
pub use server::PostgresServer;
