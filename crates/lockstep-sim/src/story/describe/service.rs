//! The narration of one domain's events.
//! What a lock service does with leases: renewals, releases, expiry.

use super::narrator::Narrator;
use super::words::with_token;
use crate::scenario::cast::ExpiryNotice;
use crate::vocabulary::happening::Happening;

/// A lock service renews or releases a lease.
pub(super) fn lease(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator { service, cast, .. } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::Renewed { client, token, ttl } => format!(
            "{service} renews {}'s lease{} for another {ttl}.",
            n(client),
            with_token(token)
        ),
        Happening::RenewRefused { client, holder, .. } => format!(
            "{service} refuses to renew {}'s lease: {}.",
            n(client),
            match holder {
                None => "it has expired".to_owned(),
                Some(h) if h == client => "that lease is over; it holds a newer one".to_owned(),
                Some(h) => format!("{} holds the lock now", n(h)),
            }
        ),
        Happening::Released { client, token } => {
            format!(
                "{service} clears the lease of {}{}: the lock is free.",
                n(client),
                with_token(token)
            )
        }
        Happening::ReleasedOthersLock { client, owner } => format!(
            "{service} deletes the lock on {}'s say-so, but the lock was {}'s: a plain DEL just freed someone else's lock.",
            n(client),
            n(owner)
        ),
        _ => return None,
    };
    Some(text)
}

/// A release refused, a lease that runs out.
pub(super) fn release(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator { cast, service, .. } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::Silent => String::new(),
        Happening::ReleaseRefused {
            client,
            token,
            holder,
        } => format!(
            "{service} ignores {}'s release{}: {}.",
            n(client),
            with_token(token),
            match holder {
                Some(h) if h != client => format!("the lock is {}'s now", n(h)),
                _ => "that lease is no longer the current one".to_owned(),
            }
        ),
        Happening::LeaseExpired { holder, token } => format!(
            "{}'s lease{} expires at {service}. {}",
            n(holder),
            with_token(token),
            match cast.expiry_notice() {
                ExpiryNotice::Silent => format!("Nobody tells {}.", n(holder)),
                ExpiryNotice::NextKeepalive => format!(
                    "Nobody tells {} now: the service says so in answer to its next keepalive, if it sends one and it gets through.",
                    n(holder)
                ),
            }
        ),
        _ => return None,
    };
    Some(text)
}
