//! The messages on their way after the first `position` events: sent by a shown event, and
//! neither delivered nor lost by one; held ones are marked held. Read from the layout's arrows
//! with the timeline's own rule ([`crate::layout::frame`]), so the stage and the timeline always
//! show the same messages: a held message stays where it was when it was held.

use super::geometry::trip_fraction;
use crate::layout::{Arrow, Layout};
use lockstep_sim::world::ids::MessageId;

/// Whether a message moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    InFlight,
    /// The user holds it: it waits where it was when they held it.
    Held,
}

/// One message on its way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flight {
    pub message: MessageId,
    pub label: &'static str,
    pub from_lane: usize,
    pub to_lane: usize,
    pub motion: Motion,
    /// How far along its trip it is, 0 to 1.
    pub fraction: f64,
}

/// The messages on their way after the first `position` events, the last of which happened at
/// `now`, in the order they were sent.
pub fn in_flight(layout: &Layout, position: usize, now: u64) -> Vec<Flight> {
    // In the order sent: the messages sent after the first `position` events are a tail to skip.
    let sent = layout.arrows.partition_point(|a| a.sent.event < position);
    layout.arrows[..sent]
        .iter()
        .filter_map(|arrow| flight(arrow, position, now))
        .collect()
}

fn flight(arrow: &Arrow, position: usize, now: u64) -> Option<Flight> {
    let shown = |event: usize| event < position;
    if !shown(arrow.sent.event) || arrow.ended.is_some_and(|end| shown(end.event)) {
        return None;
    }
    let held = arrow
        .held
        .filter(|(hold, release)| shown(hold.event) && release.is_none_or(|r| !shown(r.event)));
    let (motion, at) = match held {
        Some((hold, _)) => (Motion::Held, hold.time),
        None => (Motion::InFlight, now),
    };
    Some(Flight {
        message: arrow.message,
        label: arrow.label,
        from_lane: arrow.from_lane,
        to_lane: arrow.to_lane,
        motion,
        fraction: trip_fraction(arrow.sent.time, arrow.due, at),
    })
}
