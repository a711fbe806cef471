use super::cast::{Actor, Liveness, ResourceView, View};
use super::flights::{Motion, in_flight};
use super::geometry::{CLEARANCE, GAP, Placement, Point, Rect, STAGE_WIDTH, trip_fraction};
use super::scene::Scene;
use crate::layout::frame::{ArrowState, LaneNames, Viewport, frame};
use crate::layout::{LaneRole, Layout};
use crate::run::Run;
use lockstep_sim::engine::sim::Sim;
use lockstep_sim::models::lock_service::{NodeRole, Record};
use lockstep_sim::scenario::catalogue;
use lockstep_sim::world::token::FencingToken;

fn build(id: &str) -> (Run, Layout) {
    let scenario = catalogue::find(id)
        .and_then(|b| b.load().ok())
        .unwrap_or_else(|| panic!("{id} is in the catalogue"));
    let run = Run::record(&scenario, scenario.seed, &[]).unwrap_or_else(|e| panic!("{e}"));
    let layout = Layout::of(&run);
    (run, layout)
}

fn roles(clients: usize, services: usize) -> Vec<LaneRole> {
    std::iter::repeat_n(LaneRole::Client, clients)
        .chain(std::iter::repeat_n(LaneRole::Service, services))
        .chain([LaneRole::Resource])
        .collect()
}

/// Every cast the scenario format allows (1–8 clients, 1–7 service nodes): every box on the
/// stage, none closer than `GAP` to another.
#[test]
fn every_box_is_inside_the_stage_and_apart_from_every_other() {
    for clients in 1..=8 {
        for services in 1..=7 {
            let placement = Placement::of(&roles(clients, services));
            let what = format!("{clients} clients, {services} service nodes");
            assert_eq!(placement.boxes.len(), clients + services + 1, "{what}");
            assert_eq!(placement.width, STAGE_WIDTH);
            for (i, rect) in placement.boxes.iter().enumerate() {
                assert!(
                    rect.x >= 0.0
                        && rect.y >= 0.0
                        && rect.right() <= placement.width
                        && rect.bottom() <= placement.height,
                    "{what}: box {i} {rect:?} outside {} × {}",
                    placement.width,
                    placement.height
                );
                for (j, other) in placement.boxes.iter().enumerate().skip(i + 1) {
                    assert!(
                        !rect.crowds(other, GAP - 0.001),
                        "{what}: boxes {i} and {j} overlap or touch: {rect:?} {other:?}"
                    );
                }
            }
        }
    }
}

/// The stage stands beside the timeline: for casts of up to 8 clients and 5 service nodes it is
/// no taller than a timeline of as many lanes (44 px each, plus its toolbar, axis and legend,
/// about 110 px).
#[test]
fn the_stage_is_no_taller_than_a_timeline_of_its_lanes() {
    for clients in 1..=8 {
        for services in 1..=5 {
            let placement = Placement::of(&roles(clients, services));
            let lanes = (clients + services + 1) as f64;
            assert!(
                placement.height <= 110.0 + lanes * 44.0,
                "{clients} clients, {services} service nodes: {} tall",
                placement.height
            );
        }
    }
}

/// Whether a message drawn at `point` touches `rect`: just outside it, within the clearance (or
/// on its outline, where two boxes stand too close for any).
fn touches(rect: &Rect, point: Point) -> bool {
    rect.holds(point, CLEARANCE + 0.01) && (!rect.holds(point, 0.0) || rect.rims(point, 0.01))
}

/// A message leaves from its sender's box and arrives at its receiver's: its path starts just
/// outside the sender's outline and ends just outside the receiver's, for every pair of boxes.
#[test]
fn a_path_runs_from_the_senders_box_to_the_receivers() {
    for clients in 1..=8 {
        for services in 1..=7 {
            let placement = Placement::of(&roles(clients, services));
            let n = placement.boxes.len();
            for from in 0..n {
                for to in (0..n).filter(|&to| to != from) {
                    let track = placement.track(from, to).expect("both lanes are placed");
                    let what = format!("{clients}/{services}: {from} → {to}: {track:?}");
                    assert!(touches(&placement.boxes[from], track.at(0.0)), "{what}");
                    assert!(touches(&placement.boxes[to], track.at(1.0)), "{what}");
                    for other in (0..n).filter(|&o| o != from && o != to) {
                        let what = format!("{what}: box {other}");
                        assert!(!placement.boxes[other].holds(track.at(0.0), 0.0), "{what}");
                    }
                    assert_eq!(track.at(0.0), track.start);
                    assert_eq!(track.at(1.0), track.end);
                    assert_eq!(track.at(-1.0), track.start);
                    assert_eq!(track.at(2.0), track.end);
                    // Both ways on one link do not overlap.
                    let back = placement.track(to, from).expect("placed");
                    assert_ne!(back.start, track.end, "{what}");
                }
            }
            assert!(placement.track(0, n).is_none(), "no lane, no path");
        }
    }
}

#[test]
fn a_trip_goes_from_zero_to_one() {
    assert_eq!(trip_fraction(100, 300, 100), 0.0);
    assert_eq!(trip_fraction(100, 300, 200), 0.5);
    assert_eq!(trip_fraction(100, 300, 300), 1.0);
    assert_eq!(trip_fraction(100, 300, 900), 1.0);
    assert_eq!(trip_fraction(100, 300, 50), 0.0);
    assert_eq!(trip_fraction(100, 100, 100), 0.0);
    assert_eq!(trip_fraction(100, 100, 101), 1.0);
}

/// In a real run, a message is at its sender's box at the moment it is sent and at its
/// receiver's when it is due.
#[test]
fn a_message_is_at_its_sender_when_sent_and_at_its_receiver_when_due() {
    for id in [
        "s2-gc-pause-fenced",
        "s10-redlock-clock-jump",
        "s15-consensus-leader-crash",
    ] {
        let (_, layout) = build(id);
        let placement = Placement::of(&layout.lanes.iter().map(|l| l.role).collect::<Vec<_>>());
        let mut checked = 0;
        for arrow in &layout.arrows {
            let just_sent = arrow.sent.event + 1;
            let flights = in_flight(&layout, just_sent, arrow.sent.time);
            let Some(sent) = flights.iter().find(|f| f.message == arrow.message) else {
                continue;
            };
            let track = placement
                .track(arrow.from_lane, arrow.to_lane)
                .expect("placed");
            assert!(
                touches(&placement.boxes[arrow.from_lane], track.at(sent.fraction)),
                "{id}: message {} at its sending",
                arrow.message.0
            );
            if let Some(end) = arrow.ended.filter(|e| e.event > arrow.sent.event) {
                // Just before the event that delivers it, at the time it was due.
                let flights = in_flight(&layout, end.event, arrow.due);
                let due = flights
                    .iter()
                    .find(|f| f.message == arrow.message)
                    .expect("still on its way before its arrival is shown");
                if due.motion == Motion::InFlight {
                    assert!(
                        touches(&placement.boxes[arrow.to_lane], track.at(due.fraction)),
                        "{id}: message {} at its arrival",
                        arrow.message.0
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 5, "{id}: {checked} messages checked");
    }
}

/// The stage shows exactly the messages the timeline shows in flight or held, at every position
/// of every catalogue scenario (the timeline seen whole, where it draws every message).
#[test]
fn the_stage_shows_the_timelines_messages_in_flight_at_every_position() {
    let mut compared = 0;
    for built_in in catalogue::BUILT_IN {
        let (run, layout) = build(built_in.id);
        let trace = run.sim.trace();
        let view = Viewport::whole(layout.end, 100_000.0);
        let step = (trace.len() / 60).max(1);
        for position in (1..=trace.len()).step_by(step) {
            let now = trace[position - 1].time.0;
            let shown = frame(&layout, position, now, view, LaneNames::Beside);
            if shown.simplified {
                continue;
            }
            let timeline: Vec<_> = shown
                .arrows
                .iter()
                .filter(|a| matches!(a.state, ArrowState::InFlight | ArrowState::Held))
                .map(|a| (a.message, a.state == ArrowState::Held))
                .collect();
            let stage: Vec<_> = in_flight(&layout, position, now)
                .iter()
                .map(|f| (f.message, f.motion == Motion::Held))
                .collect();
            assert_eq!(stage, timeline, "{} at {position}", built_in.id);
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared} positions compared");
}

/// Every message on its way, at every position of every catalogue scenario, is drawn inside
/// the stage, on its path.
#[test]
fn every_message_is_drawn_inside_the_stage() {
    for built_in in catalogue::BUILT_IN {
        let (run, layout) = build(built_in.id);
        let placement = Placement::of(&layout.lanes.iter().map(|l| l.role).collect::<Vec<_>>());
        let total = run.sim.trace().len();
        for position in (0..=total).step_by((total / 12).max(1)) {
            let sim = run.sim_at(position).expect("a snapshot at 0");
            let now = sim.now().0;
            let scene = Scene::of(&layout, &placement, &sim, position, now);
            assert_eq!(scene.figures.len(), layout.lanes.len());
            for mover in &scene.movers {
                let p = mover.at;
                assert!(
                    p.x >= 0.0 && p.x <= scene.width && p.y >= 0.0 && p.y <= scene.height,
                    "{} at {position}: {mover:?}",
                    built_in.id
                );
            }
        }
    }
}

fn actor(sim: &Sim, layout: &Layout, name: &str) -> Actor {
    let lane = layout
        .lanes
        .iter()
        .find(|l| l.name == name)
        .unwrap_or_else(|| panic!("no lane {name}"));
    Actor::read(sim, lane)
}

/// S2 told as the stage tells it: client-a believes with token 33 and is paused; the row moves
/// on to client-b with token 34 while client-a still believes; the resource ends at 34.
#[test]
fn the_gc_pause_on_the_stage() {
    let (run, layout) = build("s2-gc-pause-fenced");
    let trace = run.sim.trace();
    let after = |kind: &str, nth: usize| {
        trace
            .iter()
            .filter(|e| e.happening.kind() == kind)
            .nth(nth)
            .map(|e| e.id.0 as usize + 1)
            .unwrap_or_else(|| panic!("no {kind} #{nth}"))
    };
    let paused = run.sim_at(after("paused", 0)).expect("sim");
    let a = actor(&paused, &layout, "client-a");
    assert_eq!(a.liveness, Liveness::Paused);
    let View::Client(belief) = a.view else {
        panic!("client-a is a client")
    };
    assert!(belief.believes);
    assert_eq!(belief.token, Some(FencingToken(33)));
    let service = actor(&paused, &layout, "lock-service");
    assert!(matches!(
        service.view,
        View::Service(s) if s.record.holder() == Some(a.node) && s.record.token() == Some(FencingToken(33))
    ));
    // client-b is told 34 while client-a, paused, still believes 33.
    let b_writes = run.sim_at(after("write_accepted", 0)).expect("sim");
    let service = actor(&b_writes, &layout, "lock-service");
    let b = actor(&b_writes, &layout, "client-b");
    assert!(matches!(
        service.view,
        View::Service(s) if s.record.holder() == Some(b.node) && s.record.token() == Some(FencingToken(34))
    ));
    assert!(matches!(actor(&b_writes, &layout, "client-a").view, View::Client(c) if c.believes));
    let end = run.sim_at(trace.len()).expect("sim");
    assert!(matches!(
        actor(&end, &layout, "resource").view,
        View::Resource(ResourceView::Fenced {
            highest: Some(FencingToken(34)),
            ..
        })
    ));
}

/// What the boxes say agrees with what the run recorded, at every event of three scenarios
/// (SQL row, Redlock, consensus): each client's belief and token, each Redis node's key.
#[test]
fn beliefs_and_keys_agree_with_the_run_at_every_event() {
    for id in [
        "s2-gc-pause-fenced",
        "s10-redlock-clock-jump",
        "s15-consensus-leader-crash",
    ] {
        let (run, layout) = build(id);
        let mut sim = run.sim_at(0).expect("sim");
        let mut believers = 0;
        let mut leaders = 0;
        let mut index = 0;
        while let Some(event) = sim.step() {
            let event = event.id.0 as usize;
            for lane in &layout.lanes {
                let actor = Actor::read(&sim, lane);
                match actor.view {
                    View::Client(client) => {
                        let recorded = run
                            .beliefs
                            .iter()
                            .take_while(|c| c.event <= event)
                            .filter(|c| c.client == lane.node)
                            .last()
                            .and_then(|c| c.belief);
                        assert_eq!(
                            recorded,
                            client.believes.then_some(client.token),
                            "{id}: {} after event {event}",
                            lane.name
                        );
                        believers += usize::from(client.believes);
                    }
                    View::Service(service) => {
                        if let Record::Key { holder, token } = service.record
                            && actor.liveness != Liveness::Crashed
                        {
                            let recorded = run
                                .leases
                                .iter()
                                .take_while(|c| c.event <= event)
                                .filter(|c| c.node == lane.node)
                                .last()
                                .and_then(|c| c.lease);
                            assert_eq!(
                                recorded.map(|l| (l.holder, l.token)),
                                Some((holder, token)),
                                "{id}: {} after event {event}",
                                lane.name
                            );
                        }
                        leaders += usize::from(matches!(service.role, NodeRole::Leader { .. }));
                    }
                    _ => {}
                }
            }
            index += 1;
        }
        assert!(
            index > 10 && believers > 0,
            "{id}: {believers} beliefs seen"
        );
        if id.contains("consensus") {
            assert!(leaders > 0, "{id}: a leader is shown");
        }
    }
}

/// A client's lines speak of belief, never of holding as a fact; and a crashed or paused node
/// says so in words, not only in grey.
#[test]
fn a_client_only_believes_and_a_down_node_says_so() {
    for built_in in catalogue::BUILT_IN {
        let (run, layout) = build(built_in.id);
        let placement = Placement::of(&layout.lanes.iter().map(|l| l.role).collect::<Vec<_>>());
        let total = run.sim.trace().len();
        for position in (0..=total).step_by((total / 20).max(1)) {
            let sim = run.sim_at(position).expect("sim");
            let scene = Scene::of(&layout, &placement, &sim, position, sim.now().0);
            for figure in &scene.figures {
                let what = format!("{} at {position}: {:?}", built_in.id, figure.lines);
                let room = match figure.actor.role {
                    LaneRole::Resource => 2,
                    LaneRole::Client | LaneRole::Service => 3,
                };
                assert!(figure.lines.len() <= room, "{what}");
                if figure.actor.role == LaneRole::Client {
                    for line in figure.lines.iter().chain([&figure.label]) {
                        assert!(
                            !line.contains("hold") || line.contains("believes"),
                            "{what}"
                        );
                    }
                }
                let word = match figure.actor.liveness {
                    Liveness::Running => continue,
                    Liveness::Paused => "paused",
                    Liveness::Crashed => "crashed",
                };
                assert_eq!(
                    figure.lines.first().map(String::as_str),
                    Some(word),
                    "{what}"
                );
                assert!(figure.label.contains(word), "{what}");
            }
        }
    }
}

/// Four clients to a row leave each box about 58 px of text: every line a client's box can
/// show there is short enough (ten characters at 10.5 px).
#[test]
fn narrow_client_boxes_get_short_words() {
    use super::cast::ClientView;
    use super::wording::lines;
    use lockstep_sim::scenario::cast::Cast;
    use lockstep_sim::world::ids::NodeId;
    let placement = Placement::of(&roles(8, 1));
    assert!(placement.narrow_clients);
    assert!(placement.boxes[0].width >= 58.0 + 8.0);
    let states = [
        "not started",
        "acquiring",
        "waiting to retry",
        "reading",
        "working",
        "about to write",
        "writing",
        "releasing",
        "finished",
        "crashed",
    ];
    for state in states {
        for (believes, token) in [(false, None), (true, Some(FencingToken(123)))] {
            for liveness in [Liveness::Running, Liveness::Paused, Liveness::Crashed] {
                let actor = Actor {
                    node: NodeId(9),
                    name: "client-h".to_owned(),
                    role: LaneRole::Client,
                    liveness,
                    view: View::Client(ClientView {
                        believes,
                        token,
                        state,
                    }),
                };
                for line in lines(&actor, &Cast::default(), true) {
                    assert!(line.chars().count() <= 10, "{state}: {line:?}");
                }
            }
        }
    }
}
