//! The article's lock row as a [`LockService`].

use super::article;
use crate::lock::{Grant, LockService, RequestError};
use lockstep_sim::vocabulary::message::ReleaseMethod;
use postgres::Client;

pub struct SqlRowLock {
    pub db: Client,
    pub lock_name: String,
}

impl LockService for SqlRowLock {
    fn acquire(
        &mut self,
        client: &str,
        _attempt: u32,
        ttl_ms: u64,
    ) -> Result<Option<Grant>, RequestError> {
        // The article multiplies the TTL by an interval: PostgreSQL takes it as a double.
        #[allow(clippy::cast_precision_loss)]
        let ttl_ms = ttl_ms as f64;
        let row = self
            .db
            .query_opt(article::ACQUIRE, &[&client, &ttl_ms, &self.lock_name])?;
        Ok(row.map(|row| Grant {
            token: u64::try_from(row.get::<_, i64>(0)).ok(),
            value: client.to_owned(),
        }))
    }

    fn release(&mut self, grant: &Grant, method: ReleaseMethod) -> Result<bool, RequestError> {
        let token = grant
            .token
            .and_then(|t| i64::try_from(t).ok())
            .unwrap_or_default();
        let released = match method {
            ReleaseMethod::IfStillMine => self.db.execute(
                article::RELEASE_IF_MINE,
                &[&self.lock_name, &grant.value, &token],
            ),
            ReleaseMethod::PlainDelete => self.db.execute(article::RELEASE_ANY, &[&self.lock_name]),
        };
        Ok(released? == 1)
    }

    fn renew(&mut self, grant: &Grant, ttl_ms: u64) -> Result<bool, RequestError> {
        let token = grant
            .token
            .and_then(|t| i64::try_from(t).ok())
            .unwrap_or_default();
        // PostgreSQL takes the interval's multiplier as a double, as in the acquire.
        #[allow(clippy::cast_precision_loss)]
        let ttl_ms = ttl_ms as f64;
        self.db
            .execute(
                article::RENEW,
                &[&self.lock_name, &grant.value, &token, &ttl_ms],
            )
            .map(|rows| rows == 1)
            .map_err(RequestError::from)
    }
}
