//! Lock services: who holds the lock, until when, and with which fencing token.
//!
//! A lock service answers `Acquire`, `Renew` and `Release` and decides expiry by its *own* clock.
//! It knows nothing about the resource the lock is meant to protect — which is the whole point of
//! the lesson: the service can be perfectly correct and a client can still act on a lease that has
//! expired. Two single-node designs from the seed live here: the SQL row and the cache key.

use crate::happening::Happening;
use crate::ids::{NodeId, TimerId};
use crate::message::{AcquireReply, LockValue, Payload, ReleaseMethod};
use crate::node::{Ctx, TimerKind, TimerSpan, ignored};
use crate::time::{LocalTime, Millis};
use crate::token::FencingToken;
use serde::{Deserialize, Serialize};

/// The seed's `distributed_locks` row:
///
/// ```sql
/// UPDATE distributed_locks
/// SET holder_id = :client_id, fencing_token = fencing_token + 1,
///     expires_at = CURRENT_TIMESTAMP + (:ttl_ms * INTERVAL '1 millisecond')
/// WHERE lock_name = :lock_name
///   AND (expires_at < CURRENT_TIMESTAMP OR holder_id = :client_id)
/// RETURNING fencing_token;
/// ```
///
/// Renew and release apply only for the current holder *and* token, so a client whose lease
/// expired cannot extend or release its successor's lock. `NULL` columns are `None`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SqlRow {
    pub lock_name: String,
    pub holder_id: Option<NodeId>,
    pub fencing_token: FencingToken,
    pub expires_at: Option<LocalTime>,
}

impl SqlRow {
    pub fn new(lock_name: String, fencing_token: FencingToken) -> SqlRow {
        SqlRow {
            lock_name,
            holder_id: None,
            fencing_token,
            expires_at: None,
        }
    }

    /// `expires_at < CURRENT_TIMESTAMP`: a `NULL` expiry never blocks.
    fn expired(&self, now: LocalTime) -> bool {
        self.expires_at.is_none_or(|at| at < now)
    }

    /// Who holds an unexpired lease right now, by the service's clock.
    pub fn live_holder(&self, now: LocalTime) -> Option<NodeId> {
        self.holder_id.filter(|_| !self.expired(now))
    }

    fn acquire(
        &mut self,
        now: LocalTime,
        client: NodeId,
        ttl: Millis,
    ) -> Result<FencingToken, Option<NodeId>> {
        if self.expired(now) || self.holder_id == Some(client) {
            self.holder_id = Some(client);
            self.fencing_token = self.fencing_token.next();
            self.expires_at = Some(now.after(ttl));
            Ok(self.fencing_token)
        } else {
            Err(self.holder_id)
        }
    }

    fn is_current(&self, client: NodeId, token: Option<FencingToken>) -> bool {
        self.holder_id == Some(client) && token == Some(self.fencing_token)
    }

    /// `UPDATE … SET expires_at = now + ttl WHERE holder_id = :client AND fencing_token = :token`.
    /// An expired lease nobody has taken since still matches: no one else can have written with
    /// a higher token in between.
    fn renew(
        &mut self,
        now: LocalTime,
        client: NodeId,
        token: Option<FencingToken>,
        ttl: Millis,
    ) -> bool {
        let renewed = self.is_current(client, token);
        if renewed {
            self.expires_at = Some(now.after(ttl));
        }
        renewed
    }

    fn release(
        &mut self,
        client: NodeId,
        token: Option<FencingToken>,
        method: ReleaseMethod,
    ) -> Option<NodeId> {
        let owner = self.holder_id?;
        let allowed = match method {
            ReleaseMethod::IfStillMine => self.is_current(client, token),
            ReleaseMethod::PlainDelete => true,
        };
        allowed.then(|| {
            self.holder_id = None;
            self.expires_at = None;
            owner
        })
    }

    fn force_expire(&mut self, now: LocalTime) -> Option<NodeId> {
        let holder = self.live_holder(now)?;
        self.expires_at = Some(LocalTime(now.0 - 1));
        Some(holder)
    }
}

/// One key in a single cache node, set with `SET key value NX PX ttl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheEntry {
    pub value: LockValue,
    /// Who set it (the cache itself only knows the value; kept for display and invariants).
    pub owner: NodeId,
    pub token: Option<FencingToken>,
    pub expires_at: LocalTime,
}

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
}

impl CacheLock {
    pub fn new(key: String, tokens: TokenSource, counter: FencingToken) -> CacheLock {
        CacheLock {
            key,
            entry: None,
            tokens,
            counter,
        }
    }

    /// The key as a reader would see it now: an expired key is gone.
    pub fn live_entry(&self, now: LocalTime) -> Option<CacheEntry> {
        self.entry.filter(|e| e.expires_at >= now)
    }

    fn acquire(
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
        Ok(token)
    }

    /// `if get(key) == value then pexpire(key, ttl)`.
    fn renew(&mut self, now: LocalTime, value: LockValue, ttl: Millis) -> bool {
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

    fn release(
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

    fn force_expire(&mut self, now: LocalTime) -> Option<NodeId> {
        let entry = self.live_entry(now)?;
        self.entry = None;
        Some(entry.owner)
    }
}

/// The lock service's design.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Backend {
    SqlRow(SqlRow),
    Cache(CacheLock),
}

/// A lock service node: a backend, plus the timer that announces the current lease's expiry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockService {
    pub backend: Backend,
    expiry_timer: Option<TimerId>,
}

impl LockService {
    pub fn new(backend: Backend) -> LockService {
        LockService {
            backend,
            expiry_timer: None,
        }
    }

    /// Who holds an unexpired lease now, by the service's clock, and with which token.
    pub fn live_lease(&self, now: LocalTime) -> Option<(NodeId, Option<FencingToken>)> {
        match &self.backend {
            Backend::SqlRow(row) => row.live_holder(now).map(|h| (h, Some(row.fencing_token))),
            Backend::Cache(cache) => cache.live_entry(now).map(|e| (e.owner, e.token)),
        }
    }

    /// How many unexpired leases the service holds for the lock, by its own clock.
    pub fn live_leases(&self, now: LocalTime) -> u32 {
        u32::from(self.live_lease(now).is_some())
    }

    /// Replaces the expiry announcement with one for a lease of `ttl` from now (or none).
    /// Expiry is strict (`expires_at < now`), so the lease is over one millisecond after it.
    fn watch_expiry(&mut self, ctx: &mut Ctx<'_>, ttl: Option<Millis>) {
        if let Some(timer) = self.expiry_timer.take() {
            ctx.cancel_timer(timer);
        }
        self.expiry_timer = ttl
            .map(|ttl| ctx.set_timer(TimerSpan::Fixed(Millis(ttl.0 + 1)), TimerKind::LeaseExpiry));
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx<'_>, timer: TimerId) -> Happening {
        if self.expiry_timer != Some(timer) {
            return Happening::Ignored {
                node: ctx.me,
                payload: None,
            };
        }
        self.expiry_timer = None;
        let expired = match &mut self.backend {
            Backend::SqlRow(row) => row
                .holder_id
                .filter(|_| row.live_holder(ctx.local).is_none())
                .map(|holder| (holder, Some(row.fencing_token))),
            Backend::Cache(cache) => match cache.entry {
                Some(entry) if cache.live_entry(ctx.local).is_none() => {
                    cache.entry = None;
                    Some((entry.owner, entry.token))
                }
                _ => None,
            },
        };
        match expired {
            Some((holder, token)) => Happening::LeaseExpired { holder, token },
            None => Happening::Ignored {
                node: ctx.me,
                payload: None,
            },
        }
    }

    pub fn on_message(&mut self, ctx: &mut Ctx<'_>, from: NodeId, payload: Payload) -> Happening {
        let now = ctx.local;
        match payload {
            Payload::Acquire { ttl, value } => {
                let outcome = match &mut self.backend {
                    Backend::SqlRow(row) => row.acquire(now, from, ttl).map(Some),
                    Backend::Cache(cache) => cache.acquire(now, from, ttl, value),
                };
                match outcome {
                    Ok(token) => {
                        self.watch_expiry(ctx, Some(ttl));
                        ctx.send(
                            from,
                            Payload::AcquireReply {
                                value,
                                reply: AcquireReply::Granted { token },
                            },
                        );
                        Happening::Granted {
                            client: from,
                            token,
                            ttl,
                        }
                    }
                    Err(holder) => {
                        ctx.send(
                            from,
                            Payload::AcquireReply {
                                value,
                                reply: AcquireReply::HeldElsewhere,
                            },
                        );
                        Happening::Refused {
                            client: from,
                            holder,
                        }
                    }
                }
            }
            Payload::Renew { token, value, ttl } => {
                let renewed = match &mut self.backend {
                    Backend::SqlRow(row) => row.renew(now, from, token, ttl),
                    Backend::Cache(cache) => cache.renew(now, value, ttl),
                };
                if renewed {
                    self.watch_expiry(ctx, Some(ttl));
                }
                ctx.send(from, Payload::RenewReply { renewed });
                if renewed {
                    Happening::Renewed {
                        client: from,
                        token,
                        ttl,
                    }
                } else {
                    Happening::RenewRefused {
                        client: from,
                        token,
                        holder: self.live_lease(now).map(|(h, _)| h),
                    }
                }
            }
            Payload::Release {
                token,
                value,
                method,
            } => {
                let removed = match &mut self.backend {
                    Backend::SqlRow(row) => row.release(from, token, method),
                    Backend::Cache(cache) => cache.release(now, value, method),
                };
                ctx.send(
                    from,
                    Payload::ReleaseReply {
                        released: removed.is_some(),
                    },
                );
                match removed {
                    Some(owner) => {
                        self.watch_expiry(ctx, None);
                        if owner == from {
                            Happening::Released {
                                client: from,
                                token,
                            }
                        } else {
                            Happening::ReleasedOthersLock {
                                client: from,
                                owner,
                            }
                        }
                    }
                    None => Happening::ReleaseRefused {
                        client: from,
                        token,
                        holder: self.live_lease(now).map(|(h, _)| h),
                    },
                }
            }
            other => ignored(ctx.me, other),
        }
    }

    /// After a crash the stored state is back but the expiry announcement was lost with the
    /// process: announce the live lease's expiry again, if there is one.
    pub fn restart(&mut self, ctx: &mut Ctx<'_>) {
        self.expiry_timer = None;
        let expires_at = match &self.backend {
            Backend::SqlRow(row) => row.live_holder(ctx.local).and(row.expires_at),
            Backend::Cache(cache) => cache.live_entry(ctx.local).map(|e| e.expires_at),
        };
        if let Some(expires_at) = expires_at {
            let left = u64::try_from(expires_at.since(ctx.local)).unwrap_or(0);
            self.watch_expiry(ctx, Some(Millis(left)));
        }
    }

    /// Ends the current lease now; returns whose lease it was. The pending expiry announcement
    /// becomes moot: the forced expiry is its own event.
    pub fn force_expire(&mut self, now: LocalTime) -> Option<NodeId> {
        let holder = match &mut self.backend {
            Backend::SqlRow(row) => row.force_expire(now),
            Backend::Cache(cache) => cache.force_expire(now),
        };
        if holder.is_some() {
            self.expiry_timer = None;
        }
        holder
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: NodeId = NodeId(2);
    const B: NodeId = NodeId(3);
    const VA: LockValue = LockValue(0xa);
    const VB: LockValue = LockValue(0xb);

    fn row() -> SqlRow {
        SqlRow::new("resource-x".into(), FencingToken(32))
    }

    #[test]
    fn every_acquisition_increments_the_token() {
        let mut row = row();
        assert_eq!(
            row.acquire(LocalTime(0), A, Millis(100)),
            Ok(FencingToken(33))
        );
        assert_eq!(
            row.acquire(LocalTime(200), B, Millis(100)),
            Ok(FencingToken(34))
        );
    }

    #[test]
    fn an_unexpired_lease_refuses_others_but_not_its_holder() {
        let mut row = row();
        row.acquire(LocalTime(0), A, Millis(100)).unwrap();
        assert_eq!(row.acquire(LocalTime(100), B, Millis(100)), Err(Some(A)));
        assert_eq!(
            row.acquire(LocalTime(50), A, Millis(100)),
            Ok(FencingToken(34))
        );
    }

    #[test]
    fn expiry_is_strictly_after_expires_at() {
        let mut row = row();
        row.acquire(LocalTime(0), A, Millis(100)).unwrap();
        assert!(row.acquire(LocalTime(100), B, Millis(100)).is_err());
        assert!(row.acquire(LocalTime(101), B, Millis(100)).is_ok());
    }

    #[test]
    fn an_expired_holder_cannot_release_or_renew_its_successors_lock() {
        let mut row = row();
        let stale = row.acquire(LocalTime(0), A, Millis(100)).unwrap();
        row.acquire(LocalTime(500), B, Millis(100)).unwrap();
        assert_eq!(
            row.release(A, Some(stale), ReleaseMethod::IfStillMine),
            None
        );
        assert!(!row.renew(LocalTime(510), A, Some(stale), Millis(100)));
        assert_eq!(row.live_holder(LocalTime(550)), Some(B));
    }

    #[test]
    fn release_needs_holder_and_token_and_keeps_the_token() {
        let mut row = row();
        let token = row.acquire(LocalTime(0), A, Millis(100)).unwrap();
        assert_eq!(
            row.release(B, Some(token), ReleaseMethod::IfStillMine),
            None
        );
        assert_eq!(
            row.release(A, Some(FencingToken(1)), ReleaseMethod::IfStillMine),
            None
        );
        assert_eq!(
            row.release(A, Some(token), ReleaseMethod::IfStillMine),
            Some(A)
        );
        assert_eq!(row.live_holder(LocalTime(1)), None);
        assert_eq!(row.fencing_token, token);
    }

    #[test]
    fn renew_extends_only_the_current_lease() {
        let mut row = row();
        let token = row.acquire(LocalTime(0), A, Millis(100)).unwrap();
        assert!(row.renew(LocalTime(90), A, Some(token), Millis(100)));
        assert_eq!(row.live_holder(LocalTime(150)), Some(A));
        assert!(!row.renew(LocalTime(95), B, Some(token), Millis(100)));
    }

    #[test]
    fn force_expire_frees_the_lock_at_once() {
        let mut row = row();
        row.acquire(LocalTime(0), A, Millis(1000)).unwrap();
        assert_eq!(row.force_expire(LocalTime(10)), Some(A));
        assert_eq!(
            row.acquire(LocalTime(10), B, Millis(1000)),
            Ok(FencingToken(34))
        );
        assert_eq!(row.force_expire(LocalTime(10)), Some(B));
        assert_eq!(
            row.force_expire(LocalTime(10)),
            None,
            "nothing left to expire"
        );
    }

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
