//! A lock in a single cache node: the seed's `acquireSimpleLock` / `releaseSimpleLock`
//! (`SET key value NX PX ttl`, released by a compare-and-delete script or a plain `DEL`).

use crate::vocabulary::cache_entry::CacheEntry;
use crate::vocabulary::lock_value::LockValue;
use crate::vocabulary::message::ReleaseMethod;
use crate::world::ids::NodeId;
use crate::world::time::{LocalTime, Millis};
use crate::world::token::FencingToken;
use serde::{Deserialize, Serialize};

/// Whether the cache hands out fencing tokens from a counter (`INCR`) beside the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenSource {
    None,
    Counter,
}

/// A single-node cache lock: the seed's `acquireSimpleLock` / `releaseSimpleLock`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheLock {
    pub key: String,
    pub entry: Option<CacheEntry>,
    pub tokens: TokenSource,
    pub counter: FencingToken,
    /// What survives a crash.
    pub persistence: Persistence,
    /// How long a crashed node stays down at least.
    pub restart_delay: Millis,
    /// When the key was last written, by this node's clock (for `every_second`).
    pub written_at: Option<LocalTime>,
}

/// What a cache node keeps across a crash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Persistence {
    /// Nothing: the node comes back empty.
    None,
    /// What was written more than a second before the crash (AOF, `appendfsync everysec`).
    EverySecond,
    /// Everything (`appendfsync always`).
    Always,
}

impl CacheLock {
    pub fn new(key: String, tokens: TokenSource, counter: FencingToken) -> CacheLock {
        CacheLock {
            key,
            entry: None,
            tokens,
            counter,
            persistence: Persistence::Always,
            restart_delay: Millis(0),
            written_at: None,
        }
    }

    /// The key as a reader would see it now: an expired key is gone.
    pub fn live_entry(&self, now: LocalTime) -> Option<CacheEntry> {
        self.entry.filter(|e| e.expires_at >= now)
    }

    pub(super) fn acquire(
        &mut self,
        now: LocalTime,
        client: NodeId,
        ttl: Millis,
        value: LockValue,
    ) -> Result<Option<FencingToken>, Option<NodeId>> {
        if let Some(entry) = self.live_entry(now) {
            return Err(Some(entry.owner));
        }
        let token = match self.tokens {
            TokenSource::None => None,
            TokenSource::Counter => {
                self.counter = self.counter.next();
                Some(self.counter)
            }
        };
        self.entry = Some(CacheEntry {
            value,
            owner: client,
            token,
            expires_at: now.after(ttl),
        });
        self.written_at = Some(now);
        Ok(token)
    }

    /// `if get(key) == value then pexpire(key, ttl)`.
    pub(super) fn renew(&mut self, now: LocalTime, value: LockValue, ttl: Millis) -> bool {
        match self.live_entry(now) {
            Some(entry) if entry.value == value => {
                self.entry = Some(CacheEntry {
                    expires_at: now.after(ttl),
                    ..entry
                });
                true
            }
            _ => false,
        }
    }

    pub(super) fn release(
        &mut self,
        now: LocalTime,
        value: LockValue,
        method: ReleaseMethod,
    ) -> Option<NodeId> {
        let entry = self.live_entry(now)?;
        let allowed = match method {
            ReleaseMethod::IfStillMine => entry.value == value,
            ReleaseMethod::PlainDelete => true,
        };
        allowed.then(|| {
            self.entry = None;
            entry.owner
        })
    }

    /// A crash loses what the node had not persisted. Returns whose lock was lost, if any.
    pub(super) fn crash(&mut self, now: LocalTime) -> Option<NodeId> {
        let keeps = match self.persistence {
            Persistence::Always => true,
            Persistence::None => false,
            Persistence::EverySecond => self.written_at.is_none_or(|at| now.since(at) > 1_000),
        };
        if keeps {
            return None;
        }
        self.entry.take().map(|e| e.owner)
    }

    pub(super) fn force_expire(&mut self, now: LocalTime) -> Option<NodeId> {
        let entry = self.live_entry(now)?;
        self.entry = None;
        Some(entry.owner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: NodeId = NodeId(2);
    const B: NodeId = NodeId(3);
    const VA: LockValue = LockValue(0xa);
    const VB: LockValue = LockValue(0xb);

    fn cache(tokens: TokenSource) -> CacheLock {
        CacheLock::new("lock".into(), tokens, FencingToken(0))
    }

    #[test]
    fn set_nx_refuses_while_the_key_lives_even_its_owner() {
        let mut c = cache(TokenSource::None);
        assert_eq!(c.acquire(LocalTime(0), A, Millis(100), VA), Ok(None));
        assert_eq!(c.acquire(LocalTime(50), A, Millis(100), VA), Err(Some(A)));
        assert_eq!(c.acquire(LocalTime(101), B, Millis(100), VB), Ok(None));
    }

    #[test]
    fn plain_del_deletes_someone_elses_lock_and_compare_and_delete_does_not() {
        let mut c = cache(TokenSource::None);
        c.acquire(LocalTime(0), A, Millis(100), VA).unwrap();
        c.acquire(LocalTime(200), B, Millis(100), VB).unwrap();
        assert_eq!(
            c.release(LocalTime(210), VA, ReleaseMethod::IfStillMine),
            None
        );
        assert_eq!(c.live_entry(LocalTime(210)).map(|e| e.owner), Some(B));
        assert_eq!(
            c.release(LocalTime(210), VA, ReleaseMethod::PlainDelete),
            Some(B)
        );
        assert_eq!(c.live_entry(LocalTime(210)), None);
    }

    #[test]
    fn the_counter_hands_out_increasing_tokens() {
        let mut c = cache(TokenSource::Counter);
        assert_eq!(
            c.acquire(LocalTime(0), A, Millis(10), VA),
            Ok(Some(FencingToken(1)))
        );
        assert_eq!(
            c.acquire(LocalTime(20), B, Millis(10), VB),
            Ok(Some(FencingToken(2)))
        );
    }

    #[test]
    fn renew_needs_the_value_and_a_live_key() {
        let mut c = cache(TokenSource::None);
        c.acquire(LocalTime(0), A, Millis(100), VA).unwrap();
        assert!(!c.renew(LocalTime(50), VB, Millis(100)));
        assert!(c.renew(LocalTime(50), VA, Millis(100)));
        assert!(
            !c.renew(LocalTime(151), VA, Millis(100)),
            "expired keys are gone"
        );
    }
}
