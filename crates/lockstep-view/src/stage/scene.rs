//! The stage at one position: every member of the cast in its box, with what it says, and every
//! message on its way at its place along its path, and every link cut at that moment.
//! [`Scene::of`] is what the stage component
//! draws, one to one.

use super::cast::{Actor, Liveness, View};
use super::flights::{Flight, in_flight};
use super::geometry::{Placement, Point, Rect, Track};
use super::wording::lines;
use crate::layout::Layout;
use lockstep_sim::engine::sim::Sim;
use lockstep_sim::world::ids::NodeId;

/// One member of the cast in its box.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub lane: usize,
    pub actor: Actor,
    pub rect: Rect,
    /// The short lines under its name.
    pub lines: Vec<String>,
    /// Its name and lines in one line, as a screen reader says it.
    pub label: String,
    /// For a service node that is not down: the client its record names, and that client's
    /// lane (for its colour).
    pub record_holder: Option<(String, usize)>,
}

/// One message on its way, where it is now.
#[derive(Clone, Debug, PartialEq)]
pub struct Mover {
    pub flight: Flight,
    pub track: Track,
    pub at: Point,
    /// "acquire from client-a to lock-service".
    pub sentence: String,
}

/// A link the network has cut at this position, on the path its messages would take.
#[derive(Clone, Debug, PartialEq)]
pub struct CutLink {
    pub from_lane: usize,
    pub to_lane: usize,
    pub both_ways: bool,
    pub track: Track,
    /// Where the "✂" goes: as near half way as it can be clear of every box and of the other
    /// cuts' marks ([`SCISSORS_RADIUS`] around it).
    pub middle: Point,
    /// "link from client-a to lock-service cut" (or "between … cut", both ways).
    pub sentence: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub width: f64,
    pub height: f64,
    pub figures: Vec<Figure>,
    pub movers: Vec<Mover>,
    pub cuts: Vec<CutLink>,
    /// Who holds the lock in the lock service's own terms (`Sim::lock_holder`): a majority of
    /// Redlock's nodes, or the front node's record; `None` when it names nobody, or no single
    /// client.
    pub holder: Option<NodeId>,
}

impl Scene {
    /// The stage after the first `position` events of the run `layout` was made from, whose
    /// last happened at `now`; `sim` is the simulation at that position, `placement` the
    /// layout's lanes placed ([`Placement::of`]).
    pub fn of(
        layout: &Layout,
        placement: &Placement,
        sim: &Sim,
        position: usize,
        now: u64,
    ) -> Scene {
        let cast = sim.cast();
        let figures = layout
            .lanes
            .iter()
            .zip(&placement.boxes)
            .enumerate()
            .map(|(lane, (l, rect))| {
                let actor = Actor::read(sim, l);
                let record_holder = match actor.view {
                    View::Service(service) if actor.liveness != Liveness::Crashed => service
                        .record
                        .holder()
                        .and_then(|holder| layout.lane_of(holder))
                        .map(|lane| (layout.lanes[lane].name.clone(), lane)),
                    _ => None,
                };
                let lines = lines(&actor, cast, placement.narrow_clients);
                Figure {
                    record_holder,
                    lane,
                    label: format!("{} {}", actor.name, lines.join(" ")),
                    lines,
                    actor,
                    rect: *rect,
                }
            })
            .collect();
        let name = |lane: usize| layout.lanes.get(lane).map_or("?", |l| l.name.as_str());
        let movers = in_flight(layout, position, now)
            .into_iter()
            .filter_map(|flight| {
                let track = placement.track(flight.from_lane, flight.to_lane)?;
                Some(Mover {
                    at: track.at(flight.fraction),
                    sentence: format!(
                        "{} from {} to {}",
                        flight.label,
                        name(flight.from_lane),
                        name(flight.to_lane)
                    ),
                    flight,
                    track,
                })
            })
            .collect();
        Scene {
            width: placement.width,
            height: placement.height,
            figures,
            movers,
            cuts: cut_links(layout, placement, position),
            holder: sim.lock_holder(),
        }
    }
}

/// The radius of the disc a cut link's "✂" sits on, in the stage's units.
pub const SCISSORS_RADIUS: f64 = 7.0;

/// The first point along `track`, from its middle outwards, whose "✂" covers no box and no
/// other cut's mark; the middle when there is none.
fn scissors_at(track: &Track, boxes: &[Rect], taken: &[Point]) -> Point {
    // Twentieths of the way, nearest the middle first: 0.5, 0.45, 0.55, 0.4, …
    (0..19)
        .map(|i| 0.5 + f64::from((i + 1) / 2) * if i % 2 == 1 { -0.05 } else { 0.05 })
        .map(|fraction| track.at(fraction))
        .find(|p| {
            !boxes.iter().any(|b| b.holds(*p, SCISSORS_RADIUS + 1.0))
                && taken
                    .iter()
                    .all(|t| (t.x - p.x).hypot(t.y - p.y) >= 2.0 * SCISSORS_RADIUS + 2.0)
        })
        .unwrap_or_else(|| track.at(0.5))
}

/// The links cut after the first `position` events (cut by then, not healed yet).
fn cut_links(layout: &Layout, placement: &Placement, position: usize) -> Vec<CutLink> {
    let name = |lane: usize| layout.lanes.get(lane).map_or("?", |l| l.name.as_str());
    let mut taken: Vec<Point> = Vec::new();
    layout
        .cuts
        .iter()
        .filter(|c| c.from.event < position && c.to.is_none_or(|to| to.event >= position))
        .filter_map(|cut| {
            let track = placement.track(cut.from_lane, cut.to_lane)?;
            let (from, to) = (name(cut.from_lane), name(cut.to_lane));
            let middle = scissors_at(&track, &placement.boxes, &taken);
            taken.push(middle);
            Some(CutLink {
                from_lane: cut.from_lane,
                to_lane: cut.to_lane,
                both_ways: cut.both_ways,
                middle,
                sentence: if cut.both_ways {
                    format!("link between {from} and {to} cut")
                } else {
                    format!("link from {from} to {to} cut")
                },
                track,
            })
        })
        .collect()
}
