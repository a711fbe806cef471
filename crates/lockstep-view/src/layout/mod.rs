//! The timeline's geometry in domain terms: which lanes there are, and which bars, marks, arrows
//! and violation bands sit on them, each anchored to the events that begin and end it.
//!
//! [`Layout::of`] is a pure function of a finished [`Run`]; it runs once per run, not per step.
//! What is visible at a position, and where in pixels, is [`frame`]'s job. Nothing here knows
//! about the DOM; everything is tested natively.

pub mod annotate;
mod bands;
pub mod frame;
pub mod harm;
pub mod labels;
mod moment;
pub mod plane;
pub mod shapes;
pub mod viewport;

use crate::run::{Lease, Run, Standing};
pub use bands::Band;
use harm::{Grants, Harm};
use lockstep_sim::engine::trace::{Cause, TraceEvent};
use lockstep_sim::vocabulary::happening::{Direction, Happening, Input};
use lockstep_sim::vocabulary::loss::Loss;
use lockstep_sim::vocabulary::message::Refusal;
use lockstep_sim::world::ids::{MessageId, NodeId};
use lockstep_sim::world::network::MessageStatus;
use lockstep_sim::world::token::FencingToken;
pub use moment::Moment;
use moment::{moment, moment_at};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneRole {
    Client,
    Service,
    Resource,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lane {
    pub node: NodeId,
    pub name: String,
    pub role: LaneRole,
}

/// What a bar on a lane stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpanKind {
    /// The truth: a service node holds a live lease for `holder`.
    Lease {
        holder: NodeId,
        token: Option<FencingToken>,
    },
    /// Between leaders: a consensus replica keeps `holder`'s lease in its log and nobody serves
    /// it. The lease has not ended (the next leader serves it again), so a belief over this
    /// stretch does not outlive it.
    StoredLease { holder: NodeId, token: FencingToken },
    /// A client believes it holds the lock.
    Belief { token: Option<FencingToken> },
    /// A client believes it holds the lock while no service node has a lease for it, served or
    /// stored: the gap between belief and truth, which is the whole problem.
    Overhang,
    /// The process is paused (a GC pause): it handles nothing.
    Pause,
    /// The process is down.
    Crash,
}

/// A bar from `from` until `to` (`None`: still going at the end of the run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub lane: usize,
    pub kind: SpanKind,
    pub from: Moment,
    pub to: Option<Moment>,
}

/// What a point mark on a lane stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// The resource accepted a write (or an order, or a charge).
    Accepted {
        token: Option<FencingToken>,
    },
    /// The resource accepted a write with a token another client had already been told it
    /// holds the lock with (`no_stale_write`): the data fencing is there to protect.
    Stale {
        token: FencingToken,
    },
    /// The resource accepted a read-modify-write over updates its writer never read
    /// (`no_lost_update`): those updates are gone.
    LostUpdate {
        token: Option<FencingToken>,
    },
    /// The resource refused one; `refusal` says why ("33 < 34"), where known (a recorded
    /// history may not say).
    Rejected {
        refusal: Option<Refusal>,
    },
    /// A request applied more than once (a double charge).
    Duplicated,
    ClockJump {
        by_ms: i64,
    },
    /// A user's or the scenario's intervention took effect on this lane.
    Intervention,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    pub lane: usize,
    pub kind: MarkKind,
    pub at: Moment,
}

/// How a message's journey ended, or that it has not ended yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    Delivered,
    Lost(Loss),
    /// Still on its way (or held) when the run ended.
    Underway,
}

/// A message between two lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrow {
    pub message: MessageId,
    pub label: &'static str,
    pub from_lane: usize,
    pub to_lane: usize,
    pub sent: Moment,
    /// When it is due to arrive (after the last release, if it was held).
    pub due: u64,
    /// The event where it arrived or was lost, if it came in the run.
    pub ended: Option<Moment>,
    pub fate: Fate,
    /// When the user held it, and released it (if they did).
    pub held: Option<(Moment, Option<Moment>)>,
}

/// A network cut in force from `from` until `to` (`None`: not healed in the run): messages
/// from `from_lane` to `to_lane` are lost, and back too when `both_ways`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    pub from_lane: usize,
    pub to_lane: usize,
    pub both_ways: bool,
    pub from: Moment,
    pub to: Option<Moment>,
}

/// Everything the timeline draws for one run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    pub lanes: Vec<Lane>,
    pub spans: Vec<Span>,
    pub marks: Vec<Mark>,
    pub arrows: Vec<Arrow>,
    pub bands: Vec<Band>,
    pub cuts: Vec<Cut>,
    /// When the run ends (the scenario's `end_ms`), the right edge of the whole timeline.
    pub end: u64,
    /// How many events the run has.
    pub events: usize,
}

impl Layout {
    /// The lane of `node`, which is also its hue's number.
    pub fn lane_of(&self, node: NodeId) -> Option<usize> {
        self.lanes.iter().position(|l| l.node == node)
    }

    /// The name on `node`'s lane ("?" for a node without one).
    pub fn name_of(&self, node: NodeId) -> &str {
        self.lane_of(node)
            .map_or("?", |i| self.lanes[i].name.as_str())
    }

    pub fn of(run: &Run) -> Layout {
        let sim = &run.sim;
        let cast = sim.cast();
        let trace = sim.trace();
        // Clients on top, then the lock service's nodes, then the resource: requests flow down.
        let mut lanes: Vec<Lane> = cast
            .clients()
            .map(|node| (node, LaneRole::Client))
            .chain(cast.services().map(|node| (node, LaneRole::Service)))
            .chain([(cast.resource(), LaneRole::Resource)])
            .map(|(node, role)| Lane {
                node,
                name: cast.name(node).to_owned(),
                role,
            })
            .collect();
        if cast.is_empty() {
            lanes.clear();
        }
        let mut lane_of = vec![usize::MAX; cast.len()];
        for (index, lane) in lanes.iter().enumerate() {
            lane_of[lane.node.index()] = index;
        }
        let lane = |node: NodeId| lane_of.get(node.index()).copied().unwrap_or(usize::MAX);
        let mut layout = Layout {
            end: sim.end().0,
            events: trace.len(),
            ..Layout::default()
        };
        layout.spans = state_spans(run, &lane);
        layout.spans.extend(process_spans(trace, &lane));
        layout.marks = marks(run, &lane);
        layout.arrows = arrows(run, &lane);
        layout.bands = bands::bands(run, &lane);
        layout.cuts = cuts(trace, &lane);
        layout.lanes = lanes;
        layout
    }

    /// The stretch where things happen, in virtual ms: from the first to the last message sent
    /// or arriving, write, intervention, broken invariant, or lease, belief, pause or crash
    /// beginning or ending. `None` for a run where nothing happens.
    pub fn activity(&self) -> Option<(u64, u64)> {
        let spans = self
            .spans
            .iter()
            .flat_map(|s| [Some(s.from), s.to])
            .flatten();
        let arrows = self
            .arrows
            .iter()
            .flat_map(|a| [Some(a.sent), a.ended])
            .flatten();
        let times = spans
            .chain(arrows)
            .chain(self.marks.iter().map(|m| m.at))
            .chain(self.bands.iter().map(|b| b.from))
            .map(|m| m.time);
        times.fold(None, |range, t| match range {
            None => Some((t, t)),
            Some((first, last)) => Some((first.min(t), last.max(t))),
        })
    }

    /// The moment that decides the story: the first broken invariant or refused write.
    pub fn decisive(&self) -> Option<Moment> {
        let broken = self.bands.iter().map(|b| b.from).min();
        let refused = self
            .marks
            .iter()
            .filter(|m| matches!(m.kind, MarkKind::Rejected { .. }))
            .map(|m| m.at)
            .min();
        broken.into_iter().chain(refused).min()
    }
}

/// Lease, belief and overhang bars, from the run's recorded state changes.
fn state_spans(run: &Run, lane: &impl Fn(NodeId) -> usize) -> Vec<Span> {
    let trace = run.sim.trace();
    let nodes = run.sim.cast().len();
    let mut spans = Vec::new();
    let mut open_lease: Vec<Option<usize>> = vec![None; nodes];
    let mut open_belief: Vec<Option<usize>> = vec![None; nodes];
    let mut open_overhang: Vec<Option<usize>> = vec![None; nodes];
    // How many service nodes have a live (or, between leaders, stored) lease for each client.
    let mut leases_for: Vec<u32> = vec![0; nodes];
    let mut lease_now: Vec<Option<Lease>> = vec![None; nodes];
    let mut believes = vec![false; nodes];
    let close = |spans: &mut Vec<Span>, open: &mut Option<usize>, at: Moment| {
        if let Some(index) = open.take() {
            spans[index].to = Some(at);
        }
    };
    let (mut l, mut b) = (0, 0);
    while l < run.leases.len() || b < run.beliefs.len() {
        let lease_next = run.leases.get(l).map_or(usize::MAX, |c| c.event);
        let belief_next = run.beliefs.get(b).map_or(usize::MAX, |c| c.event);
        let event = lease_next.min(belief_next);
        let at = moment_at(trace, event);
        let mut touched = Vec::new();
        while let Some(change) = run.leases.get(l).filter(|c| c.event == event) {
            let node = change.node.index();
            close(&mut spans, &mut open_lease[node], at);
            if let Some(old) = lease_now[node].take() {
                leases_for[old.holder.index()] -= 1;
                touched.push(old.holder);
            }
            if let Some(lease) = change.lease {
                leases_for[lease.holder.index()] += 1;
                touched.push(lease.holder);
                open_lease[node] = Some(spans.len());
                spans.push(Span {
                    lane: lane(change.node),
                    kind: lease_kind(lease),
                    from: at,
                    to: None,
                });
            }
            lease_now[node] = change.lease;
            l += 1;
        }
        while let Some(change) = run.beliefs.get(b).filter(|c| c.event == event) {
            let client = change.client.index();
            close(&mut spans, &mut open_belief[client], at);
            believes[client] = change.belief.is_some();
            if let Some(token) = change.belief {
                open_belief[client] = Some(spans.len());
                spans.push(Span {
                    lane: lane(change.client),
                    kind: SpanKind::Belief { token },
                    from: at,
                    to: None,
                });
            }
            touched.push(change.client);
            b += 1;
        }
        for client in touched {
            let c = client.index();
            let overhang = believes[c] && leases_for[c] == 0;
            match (overhang, open_overhang[c].is_some()) {
                (true, false) => {
                    open_overhang[c] = Some(spans.len());
                    spans.push(Span {
                        lane: lane(client),
                        kind: SpanKind::Overhang,
                        from: at,
                        to: None,
                    });
                }
                (false, true) => close(&mut spans, &mut open_overhang[c], at),
                _ => {}
            }
        }
    }
    spans
}

fn lease_kind(lease: Lease) -> SpanKind {
    match (lease.standing, lease.token) {
        (Standing::Stored, Some(token)) => SpanKind::StoredLease {
            holder: lease.holder,
            token,
        },
        (Standing::Served | Standing::Stored, token) => SpanKind::Lease {
            holder: lease.holder,
            token,
        },
    }
}

/// Pauses and crashes, from the events that start and end them.
fn process_spans(trace: &[TraceEvent], lane: &impl Fn(NodeId) -> usize) -> Vec<Span> {
    let mut spans: Vec<Span> = Vec::new();
    let open = |spans: &mut Vec<Span>, node: NodeId, kind: SpanKind, at: Moment| {
        spans.push(Span {
            lane: lane(node),
            kind,
            from: at,
            to: None,
        });
    };
    for event in trace {
        let at = moment(event);
        let ending = match event.happening {
            Happening::Paused { node, .. } => {
                open(&mut spans, node, SpanKind::Pause, at);
                None
            }
            Happening::Crashed { node, .. } => {
                open(&mut spans, node, SpanKind::Crash, at);
                None
            }
            Happening::Resumed { node, .. } => Some((node, SpanKind::Pause)),
            Happening::Restarted { node } => Some((node, SpanKind::Crash)),
            _ => None,
        };
        if let Some((node, kind)) = ending
            && let Some(span) = spans
                .iter_mut()
                .rev()
                .find(|s| s.lane == lane(node) && s.kind == kind && s.to.is_none())
        {
            span.to = Some(at);
        }
    }
    spans
}

fn marks(run: &Run, lane: &impl Fn(NodeId) -> usize) -> Vec<Mark> {
    let sim = &run.sim;
    let resource = lane(sim.cast().resource());
    let mut marks = Vec::new();
    let mut grants = Grants::default();
    for event in sim.trace() {
        let at = moment(event);
        grants.hear(sim, event);
        let harm = grants.harm(&event.happening).map(|harm| {
            let kind = match harm {
                Harm::Stale { token } => MarkKind::Stale { token },
                Harm::LostUpdate { token } => MarkKind::LostUpdate { token },
            };
            (resource, kind)
        });
        let kind = harm.or(match event.happening {
            Happening::WriteAccepted { token, .. } | Happening::StockTaken { token, .. } => {
                Some((resource, MarkKind::Accepted { token }))
            }
            Happening::ChargeApplied { times, .. } if times > 1 => {
                Some((resource, MarkKind::Duplicated))
            }
            Happening::ChargeApplied { .. } | Happening::ChargeReplayed { .. } => {
                Some((resource, MarkKind::Accepted { token: None }))
            }
            Happening::WriteRejected { refusal, .. } => Some((
                resource,
                MarkKind::Rejected {
                    refusal: Some(refusal),
                },
            )),
            Happening::ClockJumped { node, by_ms } => {
                Some((lane(node), MarkKind::ClockJump { by_ms }))
            }
            _ => None,
        });
        if let Some((lane, kind)) = kind {
            marks.push(Mark { lane, kind, at });
        }
        // Every intervention gets a mark where it acted, even one that had no effect: the user
        // should see that their click was taken.
        if matches!(event.cause, Cause::Intervention(_))
            && !matches!(event.happening, Happening::ClockJumped { .. })
        {
            marks.push(Mark {
                lane: lane(event.actor),
                kind: MarkKind::Intervention,
                at,
            });
        }
    }
    marks
}

fn arrows(run: &Run, lane: &impl Fn(NodeId) -> usize) -> Vec<Arrow> {
    let sim = &run.sim;
    let trace = sim.trace();
    let messages = sim.network().messages();
    let mut sent_at: Vec<Option<Moment>> = vec![None; messages.len()];
    let mut ended: Vec<Option<Moment>> = vec![None; messages.len()];
    let mut held: Vec<Option<(Moment, Option<Moment>)>> = vec![None; messages.len()];
    for event in trace {
        let at = moment(event);
        for id in event.sent_messages() {
            if let Some(slot) = sent_at.get_mut(id.0 as usize) {
                *slot = Some(at);
            }
        }
        let arrived = match (event.cause, event.happening) {
            (_, Happening::Lost { message, .. }) => Some(message),
            (Cause::Input(Input::Message(id)) | Cause::Resumed(Input::Message(id)), _) => Some(id),
            _ => None,
        };
        if let Some(slot) = arrived.and_then(|id| ended.get_mut(id.0 as usize)) {
            slot.get_or_insert(at);
        }
        match event.happening {
            Happening::MessageHeld { message } => {
                if let Some(slot) = held.get_mut(message.0 as usize) {
                    *slot = Some((at, None));
                }
            }
            Happening::MessageReleased { message } | Happening::MessageDropped { message } => {
                if let Some(Some((_, release))) = held.get_mut(message.0 as usize) {
                    release.get_or_insert(at);
                }
                if matches!(event.happening, Happening::MessageDropped { .. })
                    && let Some(slot) = ended.get_mut(message.0 as usize)
                {
                    slot.get_or_insert(at);
                }
            }
            _ => {}
        }
    }
    messages
        .iter()
        .enumerate()
        .filter_map(|(index, record)| {
            // A message whose sending was bookkeeping (a heartbeat) has no event to hang on.
            let sent = sent_at[index]?;
            let fate = match record.status {
                MessageStatus::Delivered { .. } => Fate::Delivered,
                MessageStatus::Lost { why, .. } => Fate::Lost(why),
                MessageStatus::InFlight | MessageStatus::Held { .. } => Fate::Underway,
            };
            Some(Arrow {
                message: record.id,
                label: record.payload.label(),
                from_lane: lane(record.from),
                to_lane: lane(record.to),
                sent,
                due: record.due_at.0,
                ended: ended[index],
                fate,
                held: held[index],
            })
        })
        .collect()
}

/// The network cuts, from the events that make and heal them. A heal mends both ways.
fn cuts(trace: &[TraceEvent], lane: &impl Fn(NodeId) -> usize) -> Vec<Cut> {
    let mut cuts: Vec<Cut> = Vec::new();
    for event in trace {
        let at = moment(event);
        match event.happening {
            Happening::Partitioned {
                from,
                to,
                direction,
            } => cuts.push(Cut {
                from_lane: lane(from),
                to_lane: lane(to),
                both_ways: direction == Direction::Both,
                from: at,
                to: None,
            }),
            Happening::Healed { a, b } => {
                let ends = [lane(a), lane(b)];
                for cut in cuts.iter_mut().filter(|c| c.to.is_none()) {
                    if ends.contains(&cut.from_lane) && ends.contains(&cut.to_lane) {
                        cut.to = Some(at);
                    }
                }
            }
            _ => {}
        }
    }
    cuts
}

/// "33 < 34" for a stale token; a few words for the other refusals.
pub fn refusal_text(refusal: Refusal) -> String {
    match refusal {
        Refusal::StaleToken {
            presented,
            required,
        } => format!("{} < {}", presented.0, required.0),
        Refusal::NoToken => "no token".to_owned(),
        Refusal::VersionChanged { expected, actual } => format!("v{expected} ≠ v{actual}"),
        Refusal::SoldOut { .. } => "sold out".to_owned(),
        Refusal::ClaimedByAnother => "claimed".to_owned(),
        Refusal::SequencerInvalid { presented } => format!("{} invalid", presented.0),
    }
}

#[cfg(test)]
mod catalogue_tests;
#[cfg(test)]
mod marks_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod truth_tests;
