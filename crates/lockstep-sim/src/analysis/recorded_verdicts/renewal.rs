//! Renewals (keepalives) in a recorded history: a lease lasts longer for each renewal the
//! service answered while the lease surely still lived, and a client that is told its renewal
//! was refused knows it has lost the lock.
//!
//! The surest reading again: a renewal counts from its send (the server renewed no earlier), and
//! only if it was sent before the lease's end as known so far (one sent later may have found
//! the lease gone). It must not decide anything but these two times.

use crate::story::recorded::{RecordedHistory, Renewed, Request};

/// When the lease granted by `grant` (an index into the operations), ending at `expiry` by its
/// TTL of `ttl_ms`, surely ends once its holder's answered renewals on the same server are
/// counted; a renewal that says no length renews for the grant's.
pub(super) fn extended(history: &RecordedHistory, grant: usize, expiry: u64, ttl_ms: u64) -> u64 {
    let granted = &history.operations[grant];
    let from_ms = granted.answered_ms.unwrap_or(granted.at_ms);
    history
        .operations
        .iter()
        .filter(|o| o.client == granted.client && o.server == granted.server && o.at_ms >= from_ms)
        .take_while(|o| !matches!(o.request, Request::Release(_)))
        .fold(expiry, |end, o| match o.request {
            Request::Renew(Some(Renewed::Extended { ttl_ms: renewed })) if o.at_ms < end => {
                end.max(o.at_ms + renewed.unwrap_or(ttl_ms))
            }
            _ => end,
        })
}

/// When `client` was first told, at or after `from_ms`, that its renewal was refused.
pub(super) fn lost_at(history: &RecordedHistory, client: &str, from_ms: u64) -> Option<u64> {
    history
        .operations
        .iter()
        .filter(|o| o.client == client && o.request == Request::Renew(Some(Renewed::Refused)))
        .filter_map(|o| o.answered_ms)
        .find(|&at| at >= from_ms)
}
