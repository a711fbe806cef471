//! The resource: a register in PostgreSQL, and setting up the tables a run starts from.

use super::article;
use super::lock::SqlRowLock;
use crate::plan::{Plan, RealFencing, ServicePlan};
use postgres::Client;

/// One client's connection to the register.
pub struct Register {
    pub db: Client,
    pub fencing: RealFencing,
}

impl Register {
    pub fn read(&mut self) -> Result<i64, String> {
        self.db
            .query_one(article::READ, &[])
            .map(|row| row.get(0))
            .map_err(|e| e.to_string())
    }

    /// Writes `value` carrying `token` (0 for a lock service without tokens); whether the
    /// register applied it.
    pub fn write(&mut self, value: i64, token: Option<u64>) -> Result<bool, String> {
        let statement = match self.fencing {
            RealFencing::On => article::WRITE_FENCED,
            RealFencing::Off => article::WRITE_UNFENCED,
        };
        let token = token
            .and_then(|t| i64::try_from(t).ok())
            .unwrap_or_default();
        self.db
            .execute(statement, &[&value, &token])
            .map(|rows| rows == 1)
            .map_err(|e| e.to_string())
    }
}

/// Makes the tables as the plan starts them: the register always, the lock row for a SQL-row
/// lock service.
pub fn set_up(admin: &mut Client, plan: &Plan) -> Result<(), postgres::Error> {
    admin
        .batch_execute("DROP TABLE IF EXISTS distributed_locks; DROP TABLE IF EXISTS register;")?;
    admin.batch_execute(article::LOCK_TABLE)?;
    admin.batch_execute(article::REGISTER_TABLE)?;
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

/// A client's lock on the SQL row, on a connection of its own.
pub fn sql_row_lock(connection: &str, lock_name: &str) -> Result<SqlRowLock, String> {
    Ok(SqlRowLock {
        db: Client::connect(connection, postgres::NoTls).map_err(|e| e.to_string())?,
        lock_name: lock_name.to_owned(),
    })
}
