//! One Redis's lock as a [`LockService`]: antirez's single-instance pattern.

use crate::lock::{Grant, LockService};
use lockstep_sim::vocabulary::message::ReleaseMethod;

/// Deletes the key only if it still holds this acquisition's value (the Redis documentation's
/// release script for the single-instance lock).
const COMPARE_AND_DELETE: &str = "if redis.call('get', KEYS[1]) == ARGV[1] then \
     return redis.call('del', KEYS[1]) else return 0 end";

pub struct CacheLock {
    pub connection: redis::Connection,
    pub key: String,
}

impl LockService for CacheLock {
    fn acquire(
        &mut self,
        client: &str,
        attempt: u32,
        ttl_ms: u64,
    ) -> Result<Option<Grant>, String> {
        let value = format!("{client}:{attempt}");
        let set: Option<String> = redis::cmd("SET")
            .arg(&self.key)
            .arg(&value)
            .arg("NX")
            .arg("PX")
            .arg(ttl_ms)
            .query(&mut self.connection)
            .map_err(|e| e.to_string())?;
        Ok(set.map(|_| Grant { token: None, value }))
    }

    fn release(&mut self, grant: &Grant, method: ReleaseMethod) -> Result<bool, String> {
        let deleted: i64 = match method {
            ReleaseMethod::IfStillMine => redis::cmd("EVAL")
                .arg(COMPARE_AND_DELETE)
                .arg(1)
                .arg(&self.key)
                .arg(&grant.value)
                .query(&mut self.connection),
            ReleaseMethod::PlainDelete => {
                redis::cmd("DEL").arg(&self.key).query(&mut self.connection)
            }
        }
        .map_err(|e| e.to_string())?;
        Ok(deleted == 1)
    }
}
