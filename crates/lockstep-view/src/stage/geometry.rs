//! Where the cast stands on the stage: one box per lane of the timeline, in a fixed drawing
//! space [`STAGE_WIDTH`] wide that the page scales to fit (about 320 px beside the timeline, the
//! whole width on a phone). Requests flow down, as on the timeline: the clients on top, the lock
//! service's nodes below them (a ring when there are three or more, as Raft's servers are
//! usually drawn), the resource at the bottom; with one service node, the service and the
//! resource share a row, so a write's path never crosses the service.
//!
//! Also the path a message takes between two boxes and where on it a message is. Pure
//! arithmetic: no state of the run, no DOM.

use crate::layout::LaneRole;
pub use crate::layout::plane::{Point, Rect};

/// Width of the drawing space, in its own units (px at the intended size).
pub const STAGE_WIDTH: f64 = 320.0;
/// Margin inside the stage's edges.
const PAD: f64 = 6.0;
/// Least room between two boxes.
pub const GAP: f64 = 8.0;
/// A client box: four lines (name, state, belief, token).
pub const CLIENT_HEIGHT: f64 = 58.0;
const CLIENT_MAX_WIDTH: f64 = 132.0;
/// A service box: four lines (name, role, key, token).
pub const SERVICE_WIDTH: f64 = 96.0;
pub const SERVICE_HEIGHT: f64 = 58.0;
/// The resource: three lines (name, highest token, value).
const RESOURCE_WIDTH: f64 = 150.0;
const RESOURCE_HEIGHT: f64 = 46.0;
/// The least half-height of the ring of service nodes.
const RING_FLATTEST: f64 = 40.0;
/// Vertical room between the rows, where the messages travel.
const TRAVEL: f64 = 40.0;
/// At most this many clients side by side; more take a second row.
const CLIENTS_PER_ROW: usize = 4;
/// How far a message's path runs beside the straight line between two boxes, so that a request
/// and its answer on the same link pass each other instead of overlapping.
pub const LANE_OFFSET: f64 = 5.0;
/// How far outside a box a message's path begins and ends: the drawn message's radius, so that
/// leaving or arriving it touches the box and covers none of its words.
pub const CLEARANCE: f64 = 6.0;

/// The boxes of the stage, one per lane of the timeline, in the lanes' order.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    pub width: f64,
    pub height: f64,
    pub boxes: Vec<Rect>,
    /// The client boxes are narrow (four to a row): their text must be short.
    pub narrow_clients: bool,
}

impl Placement {
    /// Places the lanes `roles` (clients first, then the service's nodes, then the resource, as
    /// the layout orders them; any order works).
    pub fn of(roles: &[LaneRole]) -> Placement {
        let count = |role| roles.iter().filter(|&&r| r == role).count();
        let (clients, services) = (count(LaneRole::Client), count(LaneRole::Service));
        let mut y = PAD;
        let (client_boxes, client_width) = client_rows(clients, &mut y);
        if clients > 0 {
            y += TRAVEL;
        }
        let mut service_boxes = Vec::new();
        let resource_box;
        match services {
            0 | 1 => {
                // One row: the service on the left, the resource on the right.
                let row = y + SERVICE_HEIGHT / 2.0;
                if services == 1 {
                    service_boxes.push(Rect::centred(
                        Point {
                            x: STAGE_WIDTH * 0.27,
                            y: row,
                        },
                        SERVICE_WIDTH,
                        SERVICE_HEIGHT,
                    ));
                }
                let x = if services == 1 { 0.73 } else { 0.5 };
                resource_box = Rect::centred(
                    Point {
                        x: STAGE_WIDTH * x,
                        y: row,
                    },
                    RESOURCE_WIDTH.min(STAGE_WIDTH * 0.46),
                    RESOURCE_HEIGHT,
                );
                y += SERVICE_HEIGHT;
            }
            _ => {
                service_boxes = ring(services, y);
                y = service_boxes.iter().map(Rect::bottom).fold(y, f64::max) + TRAVEL;
                resource_box = Rect::centred(
                    Point {
                        x: STAGE_WIDTH / 2.0,
                        y: y + RESOURCE_HEIGHT / 2.0,
                    },
                    RESOURCE_WIDTH,
                    RESOURCE_HEIGHT,
                );
                y += RESOURCE_HEIGHT;
            }
        }
        let (mut next_client, mut next_service) =
            (client_boxes.into_iter(), service_boxes.into_iter());
        let boxes = roles
            .iter()
            .map(|role| match role {
                LaneRole::Client => next_client.next(),
                LaneRole::Service => next_service.next(),
                LaneRole::Resource => Some(resource_box),
            })
            .map(|rect| rect.unwrap_or(resource_box))
            .collect();
        Placement {
            width: STAGE_WIDTH,
            height: y + PAD,
            boxes,
            narrow_clients: client_width < 100.0,
        }
    }

    /// The path of a message from lane `from` to lane `to`: from just outside the sender's box
    /// to just outside the receiver's ([`CLEARANCE`], where the boxes are far enough apart), a
    /// little to the right of the straight line (seen in the direction of travel), so that
    /// messages both ways on one link do not overlap.
    pub fn track(&self, from: usize, to: usize) -> Option<Track> {
        let (a, b) = (self.boxes.get(from)?, self.boxes.get(to)?);
        let (ca, cb) = (a.centre(), b.centre());
        let (dx, dy) = (cb.x - ca.x, cb.y - ca.y);
        let length = dx.hypot(dy);
        if length == 0.0 {
            return Some(Track { start: ca, end: cb });
        }
        let direction = Point {
            x: dx / length,
            y: dy / length,
        };
        // Screen coordinates: y grows downwards, so the right-hand side is (−dy, dx).
        let shift = Point {
            x: -direction.y * LANE_OFFSET,
            y: direction.x * LANE_OFFSET,
        };
        let back = Point {
            x: -direction.x,
            y: -direction.y,
        };
        let (start, end) = (a.exit(direction, shift), b.exit(back, shift));
        let room = (end.x - start.x).hypot(end.y - start.y);
        if room <= 2.0 * CLEARANCE {
            return Some(Track { start, end });
        }
        let step = |from: Point, by: f64| Point {
            x: from.x + direction.x * by,
            y: from.y + direction.y * by,
        };
        Some(Track {
            start: step(start, CLEARANCE),
            end: step(end, -CLEARANCE),
        })
    }
}

/// Rows of up to four clients, centred, starting at `y` (which it moves past them); the width
/// each box got.
fn client_rows(clients: usize, y: &mut f64) -> (Vec<Rect>, f64) {
    if clients == 0 {
        return (Vec::new(), CLIENT_MAX_WIDTH);
    }
    let rows = clients.div_ceil(CLIENTS_PER_ROW);
    let per_row = clients.div_ceil(rows);
    let room = STAGE_WIDTH - 2.0 * PAD;
    // Each box gets an equal share of the width, less the gap between neighbours.
    let width = (room / per_row as f64 - GAP).min(CLIENT_MAX_WIDTH);
    let mut boxes = Vec::with_capacity(clients);
    for row in 0..rows {
        let in_row = per_row.min(clients - row * per_row);
        // Spread over the width: a few clients stand apart, so their messages fan out.
        let slot = room / in_row as f64;
        for i in 0..in_row {
            let centre = Point {
                x: PAD + slot * (i as f64 + 0.5),
                y: *y + CLIENT_HEIGHT / 2.0,
            };
            boxes.push(Rect::centred(centre, width, CLIENT_HEIGHT));
        }
        *y += CLIENT_HEIGHT + if row + 1 < rows { GAP } else { 0.0 };
    }
    (boxes, width)
}

/// `count` service boxes on an ellipse as wide as the stage, whose top is at `top`: an odd
/// count starts at the top, an even one either side of it, so the bottom (towards the
/// resource) is always open. The ellipse is as flat as it can be with no two boxes closer than
/// [`GAP`], and no flatter than reads as a ring. The boxes are a little narrower where that
/// makes the ring much flatter (five nodes: the top one then clears its neighbours sideways),
/// and beyond six nodes narrower still, so that two neighbours level with each other fit.
fn ring(count: usize, top: f64) -> Vec<Rect> {
    let room = STAGE_WIDTH - 2.0 * PAD;
    // Two neighbours level with each other stand 2·rx·sin(π/n) apart, with rx = (room − w) / 2.
    let sine = (std::f64::consts::PI / count as f64).sin();
    let widest = SERVICE_WIDTH.min(((room * sine - GAP) / (1.0 + sine)).floor());
    let mut best: Option<(f64, Vec<Rect>)> = None;
    for narrower in [0.0, 4.0, 8.0] {
        let boxes = ring_of(count, widest - narrower);
        let height = extent(&boxes);
        // Narrower only for a ring at least 20 px flatter.
        if best.as_ref().is_none_or(|(h, _)| height < h - 20.0) {
            best = Some((height, boxes));
        }
    }
    let mut boxes = best.map(|(_, boxes)| boxes).unwrap_or_default();
    let highest = boxes.iter().map(|b| b.y).fold(f64::INFINITY, f64::min);
    for rect in &mut boxes {
        rect.y += top - highest;
    }
    boxes
}

/// The ring of `count` boxes `width` wide, as flat as it can be, centred on y = 0.
fn ring_of(count: usize, width: f64) -> Vec<Rect> {
    let rx = (STAGE_WIDTH - 2.0 * PAD - width) / 2.0;
    let step = std::f64::consts::TAU / count as f64;
    let first = -std::f64::consts::FRAC_PI_2
        + if count.is_multiple_of(2) {
            step / 2.0
        } else {
            0.0
        };
    let at = |ry: f64| -> Vec<Rect> {
        (0..count)
            .map(|i| {
                let angle = first + step * i as f64;
                Rect::centred(
                    Point {
                        x: STAGE_WIDTH / 2.0 + rx * angle.cos(),
                        y: ry * angle.sin(),
                    },
                    width,
                    SERVICE_HEIGHT,
                )
            })
            .collect()
    };
    let apart = |boxes: &[Rect]| {
        boxes
            .iter()
            .enumerate()
            .all(|(i, a)| boxes[i + 1..].iter().all(|b| !a.crowds(b, GAP)))
    };
    let mut ry = RING_FLATTEST;
    let mut boxes = at(ry);
    while !apart(&boxes) && ry < 1000.0 {
        ry += 2.0;
        boxes = at(ry);
    }
    boxes
}

/// How tall a set of boxes stands.
fn extent(boxes: &[Rect]) -> f64 {
    let top = boxes.iter().map(|b| b.y).fold(f64::INFINITY, f64::min);
    let bottom = boxes
        .iter()
        .map(Rect::bottom)
        .fold(f64::NEG_INFINITY, f64::max);
    bottom - top
}

/// A message's path across the stage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Track {
    pub start: Point,
    pub end: Point,
}

impl Track {
    /// Where a message is after `fraction` of its trip (clamped to the trip).
    pub fn at(&self, fraction: f64) -> Point {
        if fraction >= 1.0 {
            self.end
        } else {
            self.start.towards(self.end, fraction.max(0.0))
        }
    }
}

/// How far along its trip a message sent at `sent` and due at `due` is at `now`, from 0 (just
/// sent) to 1 (arriving).
pub fn trip_fraction(sent: u64, due: u64, now: u64) -> f64 {
    let total = due.saturating_sub(sent);
    if total == 0 {
        return if now > sent { 1.0 } else { 0.0 };
    }
    (now.saturating_sub(sent) as f64 / total as f64).min(1.0)
}
