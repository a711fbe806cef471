//! The narration of one domain's events: a function per kind of happening, given its fields by
//! `describe`'s exhaustive match.
//! An asynchronously replicated cache: shipping, and failover.

use super::narrator::Narrator;
use crate::world::ids::NodeId;

// A primary ships its changes to its replica, and fails over.

pub(super) fn shipped(
    narrator: &Narrator<'_>,
    node: NodeId,
    to: NodeId,
    holder: Option<NodeId>,
) -> String {
    let Narrator { cast, .. } = *narrator;
    let n = |node| cast.name(node);
    format!(
        "{} ships its changes to {}: the key names {}.",
        n(node),
        n(to),
        holder.map_or("nobody", n)
    )
}

pub(super) fn replicated(
    narrator: &Narrator<'_>,
    node: NodeId,
    from: NodeId,
    holder: Option<NodeId>,
) -> String {
    let Narrator { cast, .. } = *narrator;
    let n = |node| cast.name(node);
    match holder {
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
    }
}

pub(super) fn failed_over(
    narrator: &Narrator<'_>,
    from: NodeId,
    to: NodeId,
    lost: Option<NodeId>,
) -> String {
    let Narrator { cast, .. } = *narrator;
    let n = |node| cast.name(node);
    match lost {
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
    }
}
