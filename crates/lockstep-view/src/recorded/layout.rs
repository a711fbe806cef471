//! The timeline's [`Layout`] of a recorded history: a lane per client, then the lock service
//! and any other server a request or a fault names, then the resource. Beliefs, the leases the
//! service surely held (each on the server that granted it), pauses and crashes are bars; each
//! request is an arrow from its client to the server it asked, spanning the round trip from
//! send to answer (a recording does not know the moment in between); the resource's answers to
//! writes are marks; a cut link is drawn as the simulation draws one; broken invariants are
//! bands.
//!
//! It reads the same stretches as the verdicts (`recorded_verdicts::{beliefs, server_leases}`,
//! of which a quorum's leases are made), so what is drawn is what is judged. It must not guess what the recording does not say.

use super::events::{RecordedEvent, What};
use crate::layout::{
    Arrow, Band, Cut, Fate, Lane, LaneRole, Layout, Mark, MarkKind, Moment, Span, SpanKind,
};
use lockstep_sim::analysis::recorded_verdicts::{Breach, beliefs, server_leases};
use lockstep_sim::story::recorded::{
    Applied, Operation, RecordedFencing, RecordedHistory, Request, Written,
};
use lockstep_sim::vocabulary::happening::Direction;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::vocabulary::loss::Loss;
use lockstep_sim::vocabulary::message::Refusal;
use lockstep_sim::world::ids::{MessageId, NodeId};
use lockstep_sim::world::token::FencingToken;

/// The layout of `history`, whose moments are `events` and whose breaches are `breaches`; the
/// lanes named in `first` come first, in its order (the simulation's beside it).
pub fn layout(
    history: &RecordedHistory,
    events: &[RecordedEvent],
    breaches: &[Breach],
    first: &[String],
) -> Layout {
    let lanes = lanes(history, first);
    let lane = |name: &str| lanes.iter().position(|l| l.name == name).unwrap_or(0);
    let at = Moments(events);
    let service = lane(&history.lock_service);
    let resource = lane(&history.resource);
    let mut spans = held_bars(history, &at, &lane, service);
    let mut marks = faults(history, &at, &lane, &mut spans);
    marks.extend(writes(history, breaches, &at, resource));
    marks.sort_by_key(|m| m.at);
    Layout {
        arrows: arrows(
            history,
            &at,
            |op: &Operation| match (op.request, op.server.as_deref()) {
                (_, Some(server)) => lane(server),
                (Request::Acquire(_) | Request::Release(_) | Request::Renew(_), None) => service,
                (Request::Read(_) | Request::Write { .. }, None) => resource,
            },
            &lane,
        ),
        bands: bands(breaches, &at, &lane),
        cuts: cuts(history, &at, &lane),
        end: events.last().map_or(0, |e| e.at_ms),
        events: events.len(),
        lanes,
        spans,
        marks,
    }
}

/// Each belief on its client's lane, and each lease on the lane of the server that granted it.
fn held_bars(
    history: &RecordedHistory,
    at: &Moments,
    lane: &impl Fn(&str) -> usize,
    service: usize,
) -> Vec<Span> {
    let beliefs = beliefs(history).into_iter().map(|held| Span {
        lane: lane(held.client),
        kind: SpanKind::Belief {
            token: token_of(history, held.operation),
        },
        from: at.answer(held.operation),
        to: held.to_ms.map(|t| at.first_at(t)),
    });
    let leases = server_leases(history).into_iter().map(|held| {
        let server = history.operations[held.operation].server.as_deref();
        Span {
            lane: server.map_or(service, lane),
            kind: SpanKind::Lease {
                holder: NodeId(u16::try_from(lane(held.client)).unwrap_or(u16::MAX)),
                token: token_of(history, held.operation),
            },
            from: at.answer(held.operation),
            to: held.to_ms.map(|t| at.first_at(t)),
        }
    });
    beliefs.chain(leases).collect()
}

/// Each fault's mark on its node's lane; a pause, and a crash until the node restarts, also
/// as bars (added to `spans`).
fn faults(
    history: &RecordedHistory,
    at: &Moments,
    lane: &impl Fn(&str) -> usize,
    spans: &mut Vec<Span>,
) -> Vec<Mark> {
    let mut marks = Vec::new();
    for (i, fault) in history.faults.iter().enumerate() {
        let from = at.of(What::Fault(i));
        let bar = |kind, to| Span {
            lane: lane(&fault.node),
            kind,
            from,
            to,
        };
        let kind = match &fault.applied {
            Applied::Pause { .. } => {
                spans.push(bar(SpanKind::Pause, Some(at.of(What::PauseEnded(i)))));
                MarkKind::Intervention
            }
            Applied::ClockJump { by_ms } => MarkKind::ClockJump { by_ms: *by_ms },
            Applied::Crash => {
                let restart = history.faults[i..]
                    .iter()
                    .position(|f| f.node == fault.node && f.applied == Applied::Restart);
                spans.push(bar(
                    SpanKind::Crash,
                    restart.map(|r| at.of(What::Fault(i + r))),
                ));
                MarkKind::Intervention
            }
            Applied::Restart | Applied::Failover | Applied::Cut { .. } => MarkKind::Intervention,
        };
        marks.push(Mark {
            lane: lane(&fault.node),
            kind,
            at: from,
        });
    }
    marks
}

/// Each cut link, from the fault on (a recording of this format never heals one).
fn cuts(history: &RecordedHistory, at: &Moments, lane: &impl Fn(&str) -> usize) -> Vec<Cut> {
    history
        .faults
        .iter()
        .enumerate()
        .filter_map(|(i, fault)| match &fault.applied {
            Applied::Cut { peer, direction } => Some(Cut {
                from_lane: lane(&fault.node),
                to_lane: lane(peer),
                both_ways: *direction == Direction::Both,
                from: at.of(What::Fault(i)),
                to: None,
            }),
            _ => None,
        })
        .collect()
}

/// The clients in the order `first` gives, then the others in the order they first asked; the
/// lock service, the other servers requests or faults name (a replica, Redlock's nodes, the
/// other end of a cut), in `first`'s order where it names them; then the resource.
fn lanes(history: &RecordedHistory, first: &[String]) -> Vec<Lane> {
    let mut lanes: Vec<Lane> = Vec::new();
    let mut add = |name: &str, role: LaneRole| {
        if !lanes.iter().any(|l| l.name == name) {
            lanes.push(Lane {
                node: NodeId(u16::try_from(lanes.len()).unwrap_or(u16::MAX)),
                name: name.to_owned(),
                role,
            });
        }
    };
    let clients = history.clients();
    let ordered = first.iter().map(String::as_str);
    for client in ordered.clone().filter(|n| clients.contains(n)) {
        add(client, LaneRole::Client);
    }
    for client in &clients {
        add(client, LaneRole::Client);
    }
    add(&history.lock_service, LaneRole::Service);
    let servers = history
        .operations
        .iter()
        .filter_map(|o| o.server.as_deref());
    let faulted = history.faults.iter().flat_map(|f| {
        let peer = match &f.applied {
            Applied::Cut { peer, .. } => Some(peer.as_str()),
            _ => None,
        };
        std::iter::once(f.node.as_str()).chain(peer)
    });
    let named: Vec<&str> = servers.chain(faulted).collect();
    let others = ordered
        .filter(|n| named.contains(n))
        .chain(named.iter().copied());
    for name in others {
        if name != history.resource && !clients.contains(&name) {
            add(name, LaneRole::Service);
        }
    }
    add(&history.resource, LaneRole::Resource);
    lanes
}

/// Finds the moments of a recording.
struct Moments<'a>(&'a [RecordedEvent]);

impl Moments<'_> {
    fn of(&self, what: What) -> Moment {
        let event = self
            .0
            .iter()
            .position(|e| e.what == what)
            .unwrap_or(self.0.len());
        self.moment(event)
    }

    /// A request's answer; for a write never answered, when the resource's log says it applied
    /// it; else its send.
    fn answer(&self, operation: usize) -> Moment {
        [What::Answered(operation), What::Applied(operation)]
            .into_iter()
            .map(|what| self.of(what))
            .find(|moment| moment.event < self.0.len())
            .unwrap_or_else(|| self.of(What::Sent(operation)))
    }

    /// The first moment at or after `at_ms`.
    fn first_at(&self, at_ms: u64) -> Moment {
        self.moment(self.0.partition_point(|e| e.at_ms < at_ms))
    }

    fn moment(&self, event: usize) -> Moment {
        Moment {
            event,
            time: self
                .0
                .get(event)
                .map_or_else(|| self.0.last().map_or(0, |e| e.at_ms), |e| e.at_ms),
        }
    }
}

fn token_of(history: &RecordedHistory, operation: usize) -> Option<FencingToken> {
    match history.operations[operation].request {
        Request::Acquire(Some(lockstep_sim::story::recorded::Acquired::Granted {
            token, ..
        })) => token.map(FencingToken),
        _ => None,
    }
}

/// The resource's answers to writes: accepted, accepted and stale or over a lost update (as
/// the verdicts found), or refused — with the reason only where fencing says it (a token
/// below the highest one accepted before).
fn writes(
    history: &RecordedHistory,
    breaches: &[Breach],
    at: &Moments,
    resource: usize,
) -> Vec<Mark> {
    let broke = |invariant: Invariant, i: usize| {
        breaches
            .iter()
            .any(|b| b.invariant == invariant && b.operation == i)
    };
    let mut highest: Option<u64> = None;
    let mut marks = Vec::new();
    for (i, op) in history.operations.iter().enumerate() {
        // A write its client never heard of, which the resource's log says it applied, was
        // accepted all the same.
        let (token, outcome) = match op.request {
            Request::Write {
                token,
                outcome: Some(outcome),
                ..
            } => (token, outcome),
            Request::Write { token, .. } if op.applied_ms().is_some() => (token, Written::Accepted),
            _ => continue,
        };
        let token = token.map(FencingToken);
        let kind = match outcome {
            Written::Accepted if broke(Invariant::NoStaleWrite, i) => MarkKind::Stale {
                token: token.unwrap_or(FencingToken(0)),
            },
            Written::Accepted if broke(Invariant::NoLostUpdate, i) => {
                MarkKind::LostUpdate { token }
            }
            Written::Accepted => MarkKind::Accepted { token },
            Written::Refused => MarkKind::Rejected {
                refusal: refusal(history.fencing, token, highest),
            },
        };
        if outcome == Written::Accepted {
            highest = highest.max(token.map(|t| t.0));
        }
        marks.push(Mark {
            lane: resource,
            kind,
            at: at.answer(i),
        });
    }
    marks
}

/// Why a fenced resource refused: below the highest token it accepted before; no token at all.
/// `None` where the recording cannot say.
fn refusal(
    fencing: RecordedFencing,
    token: Option<FencingToken>,
    highest: Option<u64>,
) -> Option<Refusal> {
    match (fencing, token, highest) {
        (RecordedFencing::On, None, _) => Some(Refusal::NoToken),
        (RecordedFencing::On, Some(presented), Some(highest)) if presented.0 < highest => {
            Some(Refusal::StaleToken {
                presented,
                required: FencingToken(highest),
            })
        }
        _ => None,
    }
}

fn arrows(
    history: &RecordedHistory,
    at: &Moments,
    target: impl Fn(&Operation) -> usize,
    lane: &impl Fn(&str) -> usize,
) -> Vec<Arrow> {
    history
        .operations
        .iter()
        .enumerate()
        .map(|(i, op)| {
            let sent = at.of(What::Sent(i));
            // A request that got no answer is drawn as lost where it was sent: the recording
            // knows it went out and that nothing came back, not how far it got; a write the
            // resource's log says it applied got as far as the resource.
            let reached = op.answered_ms.or(op.applied_ms());
            let ended = Some(reached.map_or(sent, |_| at.answer(i)));
            Arrow {
                message: MessageId(u32::try_from(i).unwrap_or(u32::MAX)),
                label: match op.request {
                    Request::Acquire(_) => "acquire",
                    Request::Read(_) => "read",
                    Request::Write { .. } => "write",
                    Request::Release(_) => "release",
                    Request::Renew(_) => "renew",
                },
                from_lane: lane(&op.client),
                to_lane: target(op),
                sent,
                due: reached.unwrap_or(sent.time),
                ended,
                fate: if reached.is_some() {
                    Fate::Delivered
                } else {
                    Fate::Lost(unanswered(history, op))
                },
                held: None,
            }
        })
        .collect()
}

/// Why a request got no answer, as far as the recording says: a cut between its client and
/// its server made before it was sent, or nothing known (the network's loss, as a timeout
/// looks).
fn unanswered(history: &RecordedHistory, op: &Operation) -> Loss {
    let server = op.server.as_ref().unwrap_or(&history.lock_service);
    let cut = history.faults.iter().any(|f| {
        f.at_ms <= op.at_ms
            && matches!(&f.applied, Applied::Cut { peer, direction }
                if (f.node == op.client && peer == server)
                    || (&f.node == server && *peer == op.client && *direction == Direction::Both))
    });
    if cut { Loss::Partition } else { Loss::Chance }
}

fn bands(breaches: &[Breach], at: &Moments, lane: &impl Fn(&str) -> usize) -> Vec<Band> {
    breaches
        .iter()
        .map(|breach| Band {
            invariant: breach.invariant,
            from: at.answer(breach.operation),
            to: breach.until_ms.map(|t| at.first_at(t)),
            lanes: breach.clients.iter().map(|c| lane(c)).collect(),
        })
        .collect()
}
