//! The resource: a register in PostgreSQL, its log of applied writes, and setting up the tables
//! a run starts from.

use super::article;
use super::lock::SqlRowLock;
use crate::lock::RequestError;
use crate::plan::{Plan, RealFencing, ServicePlan};
use postgres::{Client, Statement};

/// One client's connection to the register, its read and write prepared beforehand so that
/// each is one round trip (a slow link delays each by its lag once).
pub struct Register {
    db: Client,
    read: Statement,
    write: Statement,
    /// The server process serving this connection, as the register's log names it.
    pub backend: i32,
}

/// A write the register's log shows it applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoggedWrite {
    pub backend: i32,
    pub value: i64,
    /// When, in milliseconds since the Unix epoch, by the server's clock.
    pub unix_ms: i64,
}

impl Register {
    /// Connects as `connection` says (to PostgreSQL, or to a link to it) and prepares the read
    /// and the write `fencing` says.
    pub fn connect(connection: &str, fencing: RealFencing) -> Result<Register, postgres::Error> {
        let mut db = Client::connect(connection, postgres::NoTls)?;
        let statement = match fencing {
            RealFencing::On => article::WRITE_FENCED,
            RealFencing::Off => article::WRITE_UNFENCED,
        };
        let read = db.prepare(article::READ)?;
        let write = db.prepare(statement)?;
        let backend = db.query_one("SELECT pg_backend_pid()", &[])?.get(0);
        Ok(Register {
            db,
            read,
            write,
            backend,
        })
    }

    pub fn read(&mut self) -> Result<i64, RequestError> {
        Ok(self.db.query_one(&self.read, &[])?.get(0))
    }

    /// Writes `value` carrying `token` (0 for a lock service without tokens); whether the
    /// register applied it.
    pub fn write(&mut self, value: i64, token: Option<u64>) -> Result<bool, RequestError> {
        let token = token
            .and_then(|t| i64::try_from(t).ok())
            .unwrap_or_default();
        self.db
            .execute(&self.write, &[&value, &token])
            .map(|rows| rows == 1)
            .map_err(RequestError::from)
    }
}

/// Makes the tables as the plan starts them: the register and its log always, the lock row for
/// a SQL-row lock service.
pub fn set_up(admin: &mut Client, plan: &Plan) -> Result<(), postgres::Error> {
    admin.batch_execute(
        "DROP TABLE IF EXISTS distributed_locks; DROP TABLE IF EXISTS register; \
         DROP TABLE IF EXISTS register_log;",
    )?;
    admin.batch_execute(article::LOCK_TABLE)?;
    admin.batch_execute(article::REGISTER_TABLE)?;
    admin.batch_execute(article::REGISTER_LOG_TABLE)?;
    admin.batch_execute(article::LOG_WRITES)?;
    admin.execute(article::SEED_REGISTER, &[&plan.initial_value])?;
    if let ServicePlan::SqlRow {
        lock_name,
        last_token,
    } = &plan.service
    {
        let last_token = i64::try_from(*last_token).unwrap_or(i64::MAX);
        admin.execute(article::SEED_LOCK, &[lock_name, &last_token])?;
    }
    Ok(())
}

/// The register's log, in the order it applied the writes.
pub fn logged_writes(admin: &mut Client) -> Result<Vec<LoggedWrite>, postgres::Error> {
    Ok(admin
        .query(article::READ_LOG, &[])?
        .iter()
        .map(|row| LoggedWrite {
            backend: row.get(0),
            value: row.get(1),
            unix_ms: row.get(2),
        })
        .collect())
}

/// A client's lock on the SQL row, on a connection of its own.
pub fn sql_row_lock(connection: &str, lock_name: &str) -> Result<SqlRowLock, postgres::Error> {
    Ok(SqlRowLock {
        db: Client::connect(connection, postgres::NoTls)?,
        lock_name: lock_name.to_owned(),
    })
}
