//! Redis's lock as a [`LockService`]: antirez's single-instance pattern, on one server
//! ([`CacheLock`]) or on whichever of a primary and its replica is serving ([`FailoverLock`]).

use super::replicated::ReplicatedRedis;
use crate::lock::{Grant, LockService, RequestError};
use crate::plan::RealTokens;
use lockstep_sim::vocabulary::message::ReleaseMethod;
use std::sync::Arc;

/// Deletes the key only if it still holds this acquisition's value (the Redis documentation's
/// release script for the single-instance lock).
const COMPARE_AND_DELETE: &str = "if redis.call('get', KEYS[1]) == ARGV[1] then \
     return redis.call('del', KEYS[1]) else return 0 end";

/// Extends the key's expiry only if it still holds this acquisition's value (Redisson's and
/// redlock-rb's extension).
const EXTEND_IF_MINE: &str = "if redis.call('get', KEYS[1]) == ARGV[1] then \
     return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

/// Takes the key and, in the same step on the node, increments the counter beside it: the
/// grant's fencing token. Nothing is counted when the key is taken.
const SET_AND_COUNT: &str = "if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then \
     return redis.call('incr', KEYS[2]) else return false end";

/// The key of the counter beside the lock's `key`.
pub fn counter_key(key: &str) -> String {
    format!("{key}:token")
}

pub struct CacheLock {
    pub connection: redis::Connection,
    pub key: String,
    pub tokens: RealTokens,
}

impl LockService for CacheLock {
    fn acquire(
        &mut self,
        client: &str,
        attempt: u32,
        ttl_ms: u64,
    ) -> Result<Option<Grant>, RequestError> {
        let value = format!("{client}:{attempt}");
        Ok(set_nx(
            &mut self.connection,
            &self.key,
            self.tokens,
            value,
            ttl_ms,
        )?)
    }

    fn release(&mut self, grant: &Grant, method: ReleaseMethod) -> Result<bool, RequestError> {
        Ok(release(&mut self.connection, &self.key, grant, method)?)
    }

    fn renew(&mut self, grant: &Grant, ttl_ms: u64) -> Result<bool, RequestError> {
        Ok(extend(&mut self.connection, &self.key, grant, ttl_ms)?)
    }
}

/// The lock on a primary and its replica: each request goes to the node serving when it is
/// sent, on a connection of its own (the old primary's is dead after a crash).
pub struct FailoverLock {
    pub pair: Arc<ReplicatedRedis>,
    pub key: String,
    pub tokens: RealTokens,
    pub client: String,
}

impl LockService for FailoverLock {
    fn acquire(
        &mut self,
        client: &str,
        attempt: u32,
        ttl_ms: u64,
    ) -> Result<Option<Grant>, RequestError> {
        let mut connection = self.pair.connect(&self.client)?;
        let value = format!("{client}:{attempt}");
        Ok(set_nx(
            &mut connection,
            &self.key,
            self.tokens,
            value,
            ttl_ms,
        )?)
    }

    fn release(&mut self, grant: &Grant, method: ReleaseMethod) -> Result<bool, RequestError> {
        let mut connection = self.pair.connect(&self.client)?;
        Ok(release(&mut connection, &self.key, grant, method)?)
    }

    fn renew(&mut self, grant: &Grant, ttl_ms: u64) -> Result<bool, RequestError> {
        let mut connection = self.pair.connect(&self.client)?;
        Ok(extend(&mut connection, &self.key, grant, ttl_ms)?)
    }

    fn server(&self) -> Option<String> {
        Some(self.pair.current().0.to_owned())
    }
}

/// `SET key value NX PX ttl`, with `value` this acquisition's own; with a counter, in one
/// script with the counter's `INCR`.
pub(super) fn set_nx(
    connection: &mut redis::Connection,
    key: &str,
    tokens: RealTokens,
    value: String,
    ttl_ms: u64,
) -> redis::RedisResult<Option<Grant>> {
    match tokens {
        RealTokens::None => {
            let set: Option<String> = redis::cmd("SET")
                .arg(key)
                .arg(&value)
                .arg("NX")
                .arg("PX")
                .arg(ttl_ms)
                .query(connection)?;
            Ok(set.map(|_| Grant { token: None, value }))
        }
        RealTokens::Counter { .. } => {
            let token: Option<u64> = redis::cmd("EVAL")
                .arg(SET_AND_COUNT)
                .arg(2)
                .arg(key)
                .arg(counter_key(key))
                .arg(&value)
                .arg(ttl_ms)
                .query(connection)?;
            Ok(token.map(|token| Grant {
                token: Some(token),
                value,
            }))
        }
    }
}

/// The compare-and-delete script, or a plain `DEL`; whether a key was deleted.
pub(super) fn release(
    connection: &mut redis::Connection,
    key: &str,
    grant: &Grant,
    method: ReleaseMethod,
) -> redis::RedisResult<bool> {
    let deleted: i64 = match method {
        ReleaseMethod::IfStillMine => redis::cmd("EVAL")
            .arg(COMPARE_AND_DELETE)
            .arg(1)
            .arg(key)
            .arg(&grant.value)
            .query(connection),
        ReleaseMethod::PlainDelete => redis::cmd("DEL").arg(key).query(connection),
    }?;
    Ok(deleted == 1)
}

/// The extend-if-mine script; whether the key was still this acquisition's.
fn extend(
    connection: &mut redis::Connection,
    key: &str,
    grant: &Grant,
    ttl_ms: u64,
) -> redis::RedisResult<bool> {
    let extended: i64 = redis::cmd("EVAL")
        .arg(EXTEND_IF_MINE)
        .arg(1)
        .arg(key)
        .arg(&grant.value)
        .arg(ttl_ms)
        .query(connection)?;
    Ok(extended == 1)
}
