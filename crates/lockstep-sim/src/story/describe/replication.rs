//! The narration of one domain's events.
//! An asynchronously replicated cache: shipping, and failover.

use super::narrator::Narrator;
use crate::vocabulary::happening::Happening;

/// A primary ships its changes to its replica, and fails over.
pub(super) fn replication(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator { cast, .. } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::Shipped { node, to, holder } => format!(
            "{} ships its changes to {}: the key names {}.",
            n(node),
            n(to),
            holder.map_or("nobody", n)
        ),
        Happening::Replicated { node, from, holder } => match holder {
            Some(holder) => format!(
                "{} applies {}'s change: the key now names {}.",
                n(node),
                n(from),
                n(holder)
            ),
            None => format!(
                "{} applies {}'s change: the key is now empty.",
                n(node),
                n(from)
            ),
        },
        Happening::FailedOver { from, to, lost } => match lost {
            Some(holder) => format!(
                "The monitor promotes {} to primary in place of {}. It never received {}'s lock: the lock is gone, and {} is not told.",
                n(to),
                n(from),
                n(holder),
                n(holder)
            ),
            None => format!(
                "The monitor promotes {} to primary in place of {}.",
                n(to),
                n(from)
            ),
        },
        _ => return None,
    };
    Some(text)
}
