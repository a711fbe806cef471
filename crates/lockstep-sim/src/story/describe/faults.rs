//! The narration of one domain's events: a function per kind of happening, given its fields by
//! `describe`'s exhaustive match.
//! The faults and interventions: pauses, crashes, clocks, partitions, held messages.

use super::narrator::Narrator;
use super::words::{drift_words, message_words, no_effect_words, plural};
use crate::vocabulary::happening::{Direction, NoEffect};
use crate::world::clock::Reading;
use crate::world::ids::{MessageId, NodeId};
use crate::world::time::{Millis, VirtualTime};
use crate::world::token::FencingToken;

// Pauses, crashes and restarts.

pub(super) fn paused(narrator: &Narrator<'_>, node: NodeId, for_ms: Option<Millis>) -> String {
    match for_ms {
        Some(span) => format!(
            "{} is paused for {span}, as by a stop-the-world GC pause: it handles nothing until it resumes.",
            narrator.name(node)
        ),
        None => format!(
            "{} is paused until resumed: it handles nothing meanwhile.",
            narrator.name(node)
        ),
    }
}

pub(super) fn resumed(
    narrator: &Narrator<'_>,
    node: NodeId,
    paused_for: Millis,
    waiting: u32,
) -> String {
    format!(
        "{} resumes after {paused_for} with {waiting} {} waiting. Nothing marks the pause for it: unless it reads its clock, it carries on as if no time had passed.",
        narrator.name(node),
        plural(waiting, "input", "inputs")
    )
}

/// What a crash loses depends on who crashed and what it held only in memory: the first case
/// that fits is said.
pub(super) fn crashed(
    narrator: &Narrator<'_>,
    node: NodeId,
    lost: Option<NodeId>,
    forgot_token: Option<FencingToken>,
) -> String {
    let Narrator { cast, resource, .. } = *narrator;
    let is_resource = node == cast.resource();
    match (forgot_token, lost) {
        (Some(token), _) if is_resource => format!(
            "The {resource} crashes: it answers nothing until it restarts. Its data is stored and survives, but it kept the highest token it had seen, {token}, only in memory: that is gone, so after the restart the highest-token rule has nothing to hold an old token against."
        ),
        (_, Some(holder)) => format!(
            "{} crashes. It had not persisted {}'s key, so when it comes back the key is gone.",
            narrator.name(node),
            narrator.name(holder)
        ),
        // Nothing held only in memory is named: the words depend on the node's role alone.
        _ if cast.is_client(node) => {
            format!(
                "{} crashes and loses everything it had in memory.",
                narrator.name(node)
            )
        }
        _ if is_resource => format!(
            "The {resource} crashes: it answers nothing until it restarts. What it stored survives."
        ),
        // A Redis node under its default snapshotting keeps only what its last save wrote; a
        // consensus replica has synced its log: "persisted" is true of both.
        _ => format!(
            "{} crashes: it answers nothing until it restarts. What it had persisted survives; what it held only in memory is lost.",
            narrator.name(node)
        ),
    }
}

pub(super) fn restarted(narrator: &Narrator<'_>, node: NodeId) -> String {
    let Narrator { cast, resource, .. } = *narrator;
    if node == cast.resource() {
        format!("The {resource} restarts.")
    } else {
        format!("{} restarts.", cast.name(node))
    }
}

pub(super) fn restart_delayed(narrator: &Narrator<'_>, node: NodeId, until: VirtualTime) -> String {
    format!(
        "{} is told to restart but stays down until {until}: a delayed restart keeps it out of any lock still live.",
        narrator.name(node)
    )
}

// Clocks, partitions, held messages and the other interventions.

pub(super) fn clock_jumped(narrator: &Narrator<'_>, node: NodeId, by_ms: i64) -> String {
    let name = narrator.name(node);
    let jump = format!(
        "{name}'s clock jumps {} by {} ms.",
        if by_ms >= 0 { "forwards" } else { "backwards" },
        by_ms.unsigned_abs()
    );
    // A node that times leases by a monotonic clock (`Cast::reading`, as the engine's slots
    // do): say so, or the reader expects a lease to move.
    if narrator.cast.reading(node) == Reading::Monotonic {
        format!(
            "{jump} Only its wall clock moves: {name} times sessions and elections on a monotonic \
             clock, which a step does not move."
        )
    } else {
        jump
    }
}

pub(super) fn drift_changed(narrator: &Narrator<'_>, node: NodeId, drift_ppm: i32) -> String {
    drift_words(narrator.name(node), drift_ppm)
}

pub(super) fn partitioned(
    narrator: &Narrator<'_>,
    from: NodeId,
    to: NodeId,
    direction: Direction,
) -> String {
    match direction {
        Direction::Both => format!(
            "The network between {} and {} is cut both ways.",
            narrator.name(from),
            narrator.name(to)
        ),
        Direction::OneWay => format!(
            "Messages from {} to {} are now lost.",
            narrator.name(from),
            narrator.name(to)
        ),
    }
}

pub(super) fn healed(narrator: &Narrator<'_>, a: NodeId, b: NodeId) -> String {
    format!(
        "The network between {} and {} is healed.",
        narrator.name(a),
        narrator.name(b)
    )
}

pub(super) fn message_held(narrator: &Narrator<'_>, message: MessageId) -> String {
    let Narrator { network, .. } = *narrator;
    format!(
        "{} is held in the network.",
        message_words(message, network)
    )
}

pub(super) fn message_released(narrator: &Narrator<'_>, message: MessageId) -> String {
    let Narrator { network, .. } = *narrator;
    format!(
        "{} is released and arrives now.",
        message_words(message, network)
    )
}

pub(super) fn message_dropped(narrator: &Narrator<'_>, message: MessageId) -> String {
    let Narrator { network, .. } = *narrator;
    format!("{} is dropped.", message_words(message, network))
}

pub(super) fn lease_forced_to_expire(narrator: &Narrator<'_>, holder: NodeId) -> String {
    let Narrator { service, .. } = *narrator;
    format!(
        "{}'s lease is forced to expire at {service}. {} is not told.",
        narrator.name(holder),
        narrator.name(holder)
    )
}

pub(super) fn no_effect(why: NoEffect) -> String {
    format!("The intervention has no effect: {}.", no_effect_words(why))
}
