//! Lock services: who holds the lock, until when, and with which fencing token.
//!
//! A lock service answers `Acquire` and `Release` and decides expiry by its *own* clock. It knows
//! nothing about the resource the lock is meant to protect — which is the whole point of the
//! lesson: the service can be perfectly correct and a client can still act on a lease that has
//! expired.

use crate::happening::Happening;
use crate::ids::NodeId;
use crate::ids::TimerId;
use crate::message::{AcquireReply, Payload};
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
/// Release clears the row only for the current holder *and* token, so a client whose lease
/// expired cannot release its successor's lock. `NULL` columns are `None`.
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

    /// Whether someone holds an unexpired lease right now, by the service's clock.
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

    fn release(&mut self, client: NodeId, token: Option<FencingToken>) -> bool {
        if self.holder_id == Some(client) && token == Some(self.fencing_token) {
            self.holder_id = None;
            self.expires_at = None;
            true
        } else {
            false
        }
    }

    /// The teaching control: the lease ends now, whoever holds it.
    fn force_expire(&mut self, now: LocalTime) -> Option<NodeId> {
        let holder = self.live_holder(now);
        if holder.is_some() {
            self.expires_at = Some(LocalTime(now.0 - 1));
        }
        holder
    }
}

/// A lock service node. One variant per backend design.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockService {
    pub backend: Backend,
    /// The timer that will announce the current lease's expiry.
    expiry_timer: Option<TimerId>,
}

/// The lock service's design.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Backend {
    SqlRow(SqlRow),
}

impl LockService {
    pub fn new(backend: Backend) -> LockService {
        LockService {
            backend,
            expiry_timer: None,
        }
    }

    /// Replaces the expiry announcement with one for a lease of `ttl` from now (or none).
    fn watch_expiry(&mut self, ctx: &mut Ctx<'_>, ttl: Option<Millis>) {
        if let Some(timer) = self.expiry_timer.take() {
            ctx.cancel_timer(timer);
        }
        // Expiry is strict (`expires_at < now`), so the lease is over one millisecond later.
        self.expiry_timer = ttl
            .map(|ttl| ctx.set_timer(TimerSpan::Fixed(Millis(ttl.0 + 1)), TimerKind::LeaseExpiry));
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx<'_>, timer: TimerId) -> Happening {
        let Backend::SqlRow(row) = &self.backend;
        match (self.expiry_timer == Some(timer), row.holder_id) {
            (true, Some(holder)) if row.live_holder(ctx.local).is_none() => {
                self.expiry_timer = None;
                Happening::LeaseExpired {
                    holder,
                    token: Some(row.fencing_token),
                }
            }
            _ => Happening::Ignored {
                node: ctx.me,
                payload: None,
            },
        }
    }

    pub fn on_message(&mut self, ctx: &mut Ctx<'_>, from: NodeId, payload: Payload) -> Happening {
        let Backend::SqlRow(row) = &mut self.backend;
        match payload {
            Payload::Acquire { ttl } => match row.acquire(ctx.local, from, ttl) {
                Ok(token) => {
                    self.watch_expiry(ctx, Some(ttl));
                    ctx.send(
                        from,
                        Payload::AcquireReply(AcquireReply::Granted { token: Some(token) }),
                    );
                    Happening::Granted {
                        client: from,
                        token: Some(token),
                        ttl,
                    }
                }
                Err(holder) => {
                    ctx.send(from, Payload::AcquireReply(AcquireReply::HeldElsewhere));
                    Happening::Refused {
                        client: from,
                        holder,
                    }
                }
            },
            Payload::Release { token } => {
                let released = row.release(from, token);
                ctx.send(from, Payload::ReleaseReply { released });
                if released {
                    self.watch_expiry(ctx, None);
                    Happening::Released {
                        client: from,
                        token,
                    }
                } else {
                    Happening::ReleaseRefused {
                        client: from,
                        token,
                        holder: row.holder_id,
                        current: row.fencing_token,
                    }
                }
            }
            other => ignored(ctx.me, other),
        }
    }

    /// Ends the current lease now; returns whose lease it was. The pending expiry announcement
    /// becomes moot: the forced expiry is its own event.
    pub fn force_expire(&mut self, now: LocalTime) -> Option<NodeId> {
        let Backend::SqlRow(row) = &mut self.backend;
        let holder = row.force_expire(now);
        if holder.is_some() {
            self.expiry_timer = None;
        }
        holder
    }

    /// How many unexpired leases the service holds for the lock, by its own clock.
    pub fn live_leases(&self, now: LocalTime) -> u32 {
        let Backend::SqlRow(row) = &self.backend;
        u32::from(row.live_holder(now).is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: NodeId = NodeId(2);
    const B: NodeId = NodeId(3);

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
    fn an_expired_holder_cannot_release_its_successors_lock() {
        let mut row = row();
        let stale = row.acquire(LocalTime(0), A, Millis(100)).unwrap();
        row.acquire(LocalTime(500), B, Millis(100)).unwrap();
        assert!(!row.release(A, Some(stale)));
        assert_eq!(row.live_holder(LocalTime(550)), Some(B));
    }

    #[test]
    fn release_needs_holder_and_token() {
        let mut row = row();
        let token = row.acquire(LocalTime(0), A, Millis(100)).unwrap();
        assert!(!row.release(B, Some(token)));
        assert!(!row.release(A, Some(FencingToken(1))));
        assert!(row.release(A, Some(token)));
        assert_eq!(row.live_holder(LocalTime(1)), None);
        assert_eq!(row.fencing_token, token, "the token survives a release");
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
}
