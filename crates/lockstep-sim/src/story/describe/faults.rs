//! The narration of one domain's events.
//! The faults and interventions: pauses, crashes, clocks, partitions, held messages.

use super::narrator::Narrator;
use super::words::{drift_words, message_words, no_effect_words, plural};
use crate::vocabulary::happening::{Direction, Happening};

/// Pauses, crashes and restarts.
pub(super) fn pauses_and_crashes(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator { cast, resource, .. } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::Paused { node, for_ms } => match for_ms {
            Some(span) => format!(
                "{} is paused for {span}, as by a stop-the-world GC pause: it handles nothing until it resumes.",
                n(node)
            ),
            None => format!(
                "{} is paused until resumed: it handles nothing meanwhile.",
                n(node)
            ),
        },
        Happening::Resumed {
            node,
            paused_for,
            waiting,
        } => format!(
            "{} resumes after {paused_for} with {waiting} {} waiting. Nothing marks the pause for it: unless it reads its clock, it carries on as if no time had passed.",
            n(node),
            plural(waiting, "input", "inputs")
        ),
        Happening::Crashed {
            node,
            forgot_token: Some(token),
            ..
        } if node == cast.resource() => format!(
            "The {resource} crashes: it answers nothing until it restarts. Its data is stored and survives, but it kept the highest token it had seen, {token}, only in memory: that is gone, so after the restart the highest-token rule has nothing to hold an old token against."
        ),
        Happening::Crashed {
            node,
            lost: Some(holder),
            ..
        } => format!(
            "{} crashes. It had not persisted {}'s key, so when it comes back the key is gone.",
            n(node),
            n(holder)
        ),
        Happening::Crashed { node, .. } if cast.is_client(node) => {
            format!("{} crashes and loses everything it had in memory.", n(node))
        }
        Happening::Crashed { node, .. } if node == cast.resource() => format!(
            "The {resource} crashes: it answers nothing until it restarts. What it stored survives."
        ),
        Happening::Crashed { node, .. } => format!(
            "{} crashes: it answers nothing until it restarts. What it stored survives.",
            n(node)
        ),
        Happening::Restarted { node } if node == cast.resource() => {
            format!("The {resource} restarts.")
        }
        Happening::Restarted { node } => format!("{} restarts.", n(node)),
        Happening::RestartDelayed { node, until } => format!(
            "{} is told to restart but stays down until {until}: a delayed restart keeps it out of any lock still live.",
            n(node)
        ),
        _ => return None,
    };
    Some(text)
}

/// Clocks, partitions, held messages and the other interventions.
pub(super) fn clocks_and_network(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator {
        network,
        service,
        cast,
        ..
    } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::ClockJumped { node, by_ms } => format!(
            "{}'s clock jumps {} by {} ms.",
            n(node),
            if by_ms >= 0 { "forwards" } else { "backwards" },
            by_ms.unsigned_abs()
        ),
        Happening::DriftChanged { node, drift_ppm } => drift_words(n(node), drift_ppm),
        Happening::Partitioned {
            from,
            to,
            direction,
        } => match direction {
            Direction::Both => format!(
                "The network between {} and {} is cut both ways.",
                n(from),
                n(to)
            ),
            Direction::OneWay => format!("Messages from {} to {} are now lost.", n(from), n(to)),
        },
        Happening::Healed { a, b } => {
            format!("The network between {} and {} is healed.", n(a), n(b))
        }
        Happening::MessageHeld { message } => {
            format!(
                "{} is held in the network.",
                message_words(message, network)
            )
        }
        Happening::MessageReleased { message } => {
            format!(
                "{} is released and arrives now.",
                message_words(message, network)
            )
        }
        Happening::MessageDropped { message } => {
            format!("{} is dropped.", message_words(message, network))
        }
        Happening::LeaseForcedToExpire { holder } => format!(
            "{}'s lease is forced to expire at {service}. {} is not told.",
            n(holder),
            n(holder)
        ),
        Happening::NoEffect { why } => {
            format!("The intervention has no effect: {}.", no_effect_words(why))
        }
        _ => return None,
    };
    Some(text)
}
