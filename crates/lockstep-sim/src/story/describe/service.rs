//! The narration of one domain's events: a function per kind of happening, given its fields by
//! `describe`'s exhaustive match.
//! What a lock service does with leases: renewals, releases, expiry.

use super::narrator::Narrator;
use super::words::with_token;
use crate::scenario::cast::ExpiryNotice;
use crate::world::ids::NodeId;
use crate::world::time::Millis;
use crate::world::token::FencingToken;

// A lock service renews or releases a lease.

pub(super) fn renewed(
    narrator: &Narrator<'_>,
    client: NodeId,
    token: Option<FencingToken>,
    ttl: Millis,
) -> String {
    let Narrator { service, .. } = *narrator;
    format!(
        "{service} renews {}'s lease{} for another {ttl}.",
        narrator.name(client),
        with_token(token)
    )
}

pub(super) fn renew_refused(
    narrator: &Narrator<'_>,
    client: NodeId,
    holder: Option<NodeId>,
) -> String {
    let Narrator { service, .. } = *narrator;
    format!(
        "{service} refuses to renew {}'s lease: {}.",
        narrator.name(client),
        match holder {
            None => "it has expired".to_owned(),
            Some(h) if h == client => "that lease is over; it holds a newer one".to_owned(),
            Some(h) => format!("{} holds the lock now", narrator.name(h)),
        }
    )
}

pub(super) fn released(
    narrator: &Narrator<'_>,
    client: NodeId,
    token: Option<FencingToken>,
) -> String {
    let Narrator { service, .. } = *narrator;
    format!(
        "{service} clears the lease of {}{}: the lock is free.",
        narrator.name(client),
        with_token(token)
    )
}

pub(super) fn released_others_lock(
    narrator: &Narrator<'_>,
    client: NodeId,
    owner: NodeId,
) -> String {
    let Narrator { service, .. } = *narrator;
    format!(
        "{service} deletes the lock on {}'s say-so, but the lock was {}'s: a plain DEL just freed someone else's lock.",
        narrator.name(client),
        narrator.name(owner)
    )
}

// A release refused, a lease that runs out.

pub(super) fn release_refused(
    narrator: &Narrator<'_>,
    client: NodeId,
    token: Option<FencingToken>,
    holder: Option<NodeId>,
) -> String {
    let Narrator { service, .. } = *narrator;
    format!(
        "{service} ignores {}'s release{}: {}.",
        narrator.name(client),
        with_token(token),
        match holder {
            Some(h) if h != client => format!("the lock is {}'s now", narrator.name(h)),
            _ => "that lease is no longer the current one".to_owned(),
        }
    )
}

pub(super) fn lease_expired(
    narrator: &Narrator<'_>,
    holder: NodeId,
    token: Option<FencingToken>,
) -> String {
    let Narrator { service, cast, .. } = *narrator;
    format!(
        "{}'s lease{} expires at {service}. {}",
        narrator.name(holder),
        with_token(token),
        match cast.expiry_notice() {
            ExpiryNotice::Silent => format!("Nobody tells {}.", narrator.name(holder)),
            ExpiryNotice::NextKeepalive => format!(
                "Nobody tells {} now: the service says so in answer to its next keepalive, if it sends one and it gets through.",
                narrator.name(holder)
            ),
        }
    )
}
