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
    format!(
        "{} ships its changes to {}: the key names {}.",
        narrator.name(node),
        narrator.name(to),
        holder.map_or("nobody", |node| narrator.name(node))
    )
}

pub(super) fn replicated(
    narrator: &Narrator<'_>,
    node: NodeId,
    from: NodeId,
    holder: Option<NodeId>,
) -> String {
    match holder {
        Some(holder) => format!(
            "{} applies {}'s change: the key now names {}.",
            narrator.name(node),
            narrator.name(from),
            narrator.name(holder)
        ),
        None => format!(
            "{} applies {}'s change: the key is now empty.",
            narrator.name(node),
            narrator.name(from)
        ),
    }
}

pub(super) fn failed_over(
    narrator: &Narrator<'_>,
    from: NodeId,
    to: NodeId,
    lost: Option<NodeId>,
) -> String {
    match lost {
        Some(holder) => format!(
            "The monitor promotes {} to primary in place of {}. It never received {}'s lock: the lock is gone, and {} is not told.",
            narrator.name(to),
            narrator.name(from),
            narrator.name(holder),
            narrator.name(holder)
        ),
        None => format!(
            "The monitor promotes {} to primary in place of {}.",
            narrator.name(to),
            narrator.name(from)
        ),
    }
}
