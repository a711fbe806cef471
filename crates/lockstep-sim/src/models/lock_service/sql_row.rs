//! The seed's SQL lock: one row of `distributed_locks`, updated by conditional statements.

use crate::vocabulary::message::ReleaseMethod;
use crate::world::ids::NodeId;
use crate::world::time::{LocalTime, Millis};
use crate::world::token::FencingToken;
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
    pub(super) fn expired(&self, now: LocalTime) -> bool {
        self.expires_at.is_none_or(|at| at < now)
    }

    /// Who holds an unexpired lease right now, by the service's clock.
    pub fn live_holder(&self, now: LocalTime) -> Option<NodeId> {
        self.holder_id.filter(|_| !self.expired(now))
    }

    pub(super) fn acquire(
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

    pub(super) fn is_current(&self, client: NodeId, token: Option<FencingToken>) -> bool {
        self.holder_id == Some(client) && token == Some(self.fencing_token)
    }

    /// `UPDATE … SET expires_at = now + ttl WHERE holder_id = :client AND fencing_token = :token
    /// AND expires_at >= CURRENT_TIMESTAMP`. An expired lease is gone, even when nobody has taken
    /// the lock since: the holder must acquire again (and gets a new token).
    pub(super) fn renew(
        &mut self,
        now: LocalTime,
        client: NodeId,
        token: Option<FencingToken>,
        ttl: Millis,
    ) -> bool {
        let renewed = self.is_current(client, token) && !self.expired(now);
        if renewed {
            self.expires_at = Some(now.after(ttl));
        }
        renewed
    }

    pub(super) fn release(
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

    pub(super) fn force_expire(&mut self, now: LocalTime) -> Option<NodeId> {
        let holder = self.live_holder(now)?;
        self.expires_at = Some(LocalTime(now.0 - 1));
        Some(holder)
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
    fn an_expired_lease_is_not_renewed_even_if_nobody_took_the_lock() {
        let mut row = row();
        let token = row.acquire(LocalTime(0), A, Millis(100)).unwrap();
        assert!(
            row.renew(LocalTime(100), A, Some(token), Millis(100)),
            "not yet"
        );
        assert!(!row.renew(LocalTime(201), A, Some(token), Millis(100)));
        assert_eq!(row.live_holder(LocalTime(201)), None);
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
