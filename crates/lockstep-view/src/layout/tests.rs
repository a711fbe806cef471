use super::frame::{ArrowShape, ArrowState, Frame, LaneNames, Viewport, time_label};
use super::*;
use lockstep_sim::scenario::catalogue;
use lockstep_sim::vocabulary::invariant::Invariant;

/// A frame with the lanes' names beside the plot, as on a wide screen.
fn frame(layout: &Layout, position: usize, now: u64, view: Viewport) -> Frame {
    super::frame::frame(layout, position, now, view, LaneNames::Beside)
}

fn build(id: &str) -> (Run, Layout) {
    let scenario = catalogue::find(id)
        .and_then(|b| b.load().ok())
        .unwrap_or_else(|| panic!("{id} is in the catalogue"));
    let run = Run::record(&scenario, scenario.seed, &[]).unwrap_or_else(|e| panic!("{e}"));
    let layout = Layout::of(&run);
    (run, layout)
}

fn lane_named(layout: &Layout, name: &str) -> usize {
    layout
        .lanes
        .iter()
        .position(|l| l.name == name)
        .unwrap_or_else(|| panic!("no lane {name}"))
}

fn kind_at(run: &Run, index: usize) -> String {
    run.sim.trace()[index].happening.kind().to_owned()
}

#[test]
fn lanes_are_clients_then_the_service_then_the_resource() {
    let (_, layout) = build("s2-gc-pause-fenced");
    let names: Vec<_> = layout.lanes.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["client-a", "client-b", "lock-service", "resource"]);
    let (_, redlock) = build("s10-redlock-clock-jump");
    let services = redlock
        .lanes
        .iter()
        .filter(|l| l.role == LaneRole::Service)
        .count();
    assert!(services >= 3, "one lane per Redlock node");
}

#[test]
fn the_gc_pause_draws_truth_belief_and_the_overhang_between_them() {
    let (run, layout) = build("s2-gc-pause-fenced");
    let a = lane_named(&layout, "client-a");
    let service = lane_named(&layout, "lock-service");
    let leases: Vec<_> = layout
        .spans
        .iter()
        .filter_map(|s| match s.kind {
            SpanKind::Lease { token, .. } if s.lane == service => Some(token.map(|t| t.0)),
            _ => None,
        })
        .collect();
    assert_eq!(leases, [Some(33), Some(34)]);
    let pause = layout
        .spans
        .iter()
        .find(|s| s.lane == a && s.kind == SpanKind::Pause)
        .expect("client-a's pause is drawn");
    assert_eq!(kind_at(&run, pause.from.event), "paused");
    assert_eq!(
        pause.to.map(|m| kind_at(&run, m.event)).as_deref(),
        Some("resumed")
    );
    let overhang = layout
        .spans
        .iter()
        .find(|s| s.lane == a && s.kind == SpanKind::Overhang)
        .expect("client-a believes after its lease expired");
    assert_eq!(kind_at(&run, overhang.from.event), "lease_expired");
    assert!(
        overhang.to.is_some_and(|to| to.time > 2000),
        "until it learns"
    );
    let first_lease_end = layout
        .spans
        .iter()
        .find(|s| s.lane == service)
        .and_then(|s| s.to)
        .expect("the first lease ends");
    assert_eq!(
        overhang.from, first_lease_end,
        "the overhang starts as the truth ends"
    );
}

#[test]
fn writes_show_their_token_and_the_refusal_reads_33_less_than_34() {
    let (_, layout) = build("s2-gc-pause-fenced");
    let resource = lane_named(&layout, "resource");
    let on_resource: Vec<_> = layout.marks.iter().filter(|m| m.lane == resource).collect();
    assert!(matches!(
        on_resource[0].kind,
        MarkKind::Accepted {
            token: Some(FencingToken(34))
        }
    ));
    match on_resource[1].kind {
        MarkKind::Rejected {
            refusal: Some(refusal),
        } => assert_eq!(refusal_text(refusal), "33 < 34"),
        other => panic!("expected a rejection, got {other:?}"),
    }
}

#[test]
fn a_state_invariant_band_ends_when_it_holds_again_a_history_one_never_does() {
    let (_, fenced) = build("s2-gc-pause-fenced");
    let belief = fenced
        .bands
        .iter()
        .find(|b| b.invariant == Invariant::OneBeliever)
        .expect("two believers in S2");
    assert!(belief.to.is_some(), "client-a learns it was fenced");
    let (_, unfenced) = build("s1-gc-pause-unfenced");
    let lost = unfenced
        .bands
        .iter()
        .find(|b| b.invariant == Invariant::NoLostUpdate)
        .expect("the checker catches the lost update with fencing off");
    assert_eq!(lost.to, None);
}

#[test]
fn every_arrow_starts_at_a_recorded_event_and_ends_after_it() {
    let (run, layout) = build("s4-delayed-packet");
    assert!(!layout.arrows.is_empty());
    for arrow in &layout.arrows {
        assert!(run.sim.trace()[arrow.sent.event].sent > 0);
        if let Some(end) = arrow.ended {
            assert!(end.event > arrow.sent.event, "{arrow:?}");
        }
    }
}

#[test]
fn the_frame_shows_only_what_happened_before_the_position() {
    let (run, layout) = build("s2-gc-pause-fenced");
    let view = Viewport::whole(layout.end, 800.0);
    // Before the lease expires: one lease, open, and no overhang yet.
    let expiry = (0..run.sim.trace().len())
        .find(|&i| kind_at(&run, i) == "lease_expired")
        .expect("the lease expires");
    let now = run.sim.trace()[expiry - 1].time.0;
    let before = frame(&layout, expiry, now, view);
    assert!(before.bars.iter().all(|b| b.kind != SpanKind::Overhang));
    let open_lease = before
        .bars
        .iter()
        .find(|b| matches!(b.kind, SpanKind::Lease { .. }))
        .expect("a lease bar");
    assert!(open_lease.open);
    assert!(
        (open_lease.x + open_lease.width - before.offset - view.x(now)).abs() < 1e-9,
        "drawn to now"
    );
    let writes = |f: &Frame| {
        f.marks
            .iter()
            .filter(|m| m.kind != MarkKind::Intervention)
            .count()
    };
    assert_eq!(writes(&before), 0, "no write yet");
    assert_eq!(
        before.marks.len(),
        1,
        "the pause, an intervention, is marked"
    );
    let after = frame(&layout, expiry + 1, run.sim.trace()[expiry].time.0, view);
    assert!(
        after
            .bars
            .iter()
            .any(|b| b.kind == SpanKind::Overhang && b.open)
    );
    let end = frame(&layout, run.sim.trace().len(), run.sim.now().0, view);
    assert_eq!(writes(&end), 2);
    assert!(end.arrows.iter().all(|a| a.state != ArrowState::InFlight));
}

#[test]
fn a_message_sent_but_not_arrived_is_in_flight_part_way() {
    let (run, layout) = build("s2-gc-pause-fenced");
    let view = Viewport::whole(layout.end, 1000.0);
    let arrow = &layout.arrows[0];
    let arrival = arrow.ended.expect("it arrives");
    // Between sending and arrival, the arrow has left its lane but not reached the other.
    let position = arrow.sent.event + 1;
    assert!(position <= arrival.event);
    let now = (arrow.sent.time + arrow.due) / 2;
    let f = frame(&layout, position, now, view);
    let shape = f
        .arrows
        .iter()
        .find(|a| a.message == arrow.message)
        .expect("drawn");
    assert_eq!(shape.state, ArrowState::InFlight);
    let (from, to) = (
        super::frame::lane_centre(arrow.from_lane),
        super::frame::lane_centre(arrow.to_lane),
    );
    assert!(shape.y2 != from && shape.y2 != to, "part way: {shape:?}");
    let (due_x, due_y) = shape.due.expect("its destination is drawn faint");
    assert!((due_x - f.offset - view.x(arrow.due)).abs() < 1e-9);
    assert_eq!(due_y, to);
    assert!(run.sim.trace().len() > position);
}

#[test]
fn only_what_is_inside_the_viewport_is_emitted() {
    let (run, layout) = build("s2-gc-pause-fenced");
    let all = frame(
        &layout,
        run.sim.trace().len(),
        run.sim.now().0,
        Viewport::whole(layout.end, 800.0),
    );
    let narrow = Viewport {
        start: 3000.0,
        span: 500.0,
        width: 800.0,
    };
    let late = frame(&layout, run.sim.trace().len(), run.sim.now().0, narrow);
    assert!(late.marks.is_empty(), "every write happened before 3 s");
    assert!(late.arrows.len() < all.arrows.len());
}

#[test]
fn zoom_keeps_the_time_under_the_pointer_and_stays_in_the_run() {
    let view = Viewport::whole(4000, 800.0);
    let zoomed = view.zoomed(4.0, 200.0, 4000);
    assert!((zoomed.time_at(200.0) - view.time_at(200.0)).abs() < 1e-6);
    assert!((zoomed.span - 1040.0).abs() < 1e-9);
    let out = zoomed.panned(-10_000.0, 4000);
    assert_eq!(out.start, -80.0, "a 2 % margin before t = 0");
    let far = zoomed.panned(1e9, 4000);
    assert!((far.start + far.span - 4080.0).abs() < 1e-9);
    let back = zoomed.zoomed(1e-6, 0.0, 4000);
    assert_eq!(back, view, "zooming out stops at the whole run");
    let followed = zoomed.following(3500, 4000);
    assert!(followed.time_at(followed.width) >= 3500.0);
}

#[test]
fn ticks_are_round_and_labels_read_naturally() {
    let f = frame(
        &Layout::default(),
        0,
        0,
        Viewport {
            start: 0.0,
            span: 4000.0,
            width: 800.0,
        },
    );
    let labels: Vec<_> = f.ticks.iter().map(|t| t.label.as_str()).collect();
    // The present is at 0 ms: that label gives way to the "now" tag (its grid line stays).
    assert_eq!(
        labels,
        [
            "", "500 ms", "1 s", "1.5 s", "2 s", "2.5 s", "3 s", "3.5 s", "4 s"
        ]
    );
    assert_eq!(time_label(1250), "1.25 s");
}

#[test]
fn a_long_run_in_one_view_is_an_overview_that_keeps_what_went_wrong() {
    use super::frame::{MAX_ARROWS, MAX_BARS, MAX_MARKS};
    use crate::builder::Settings;
    let settings = Settings {
        clients: 8,
        run_ms: 180_000,
        fencing: false,
        ..Settings::default()
    };
    let scenario = lockstep_sim::Scenario::parse(&settings.to_json()).expect("valid");
    let run = Run::record(&scenario, scenario.seed, &[]).expect("runs");
    let layout = Layout::of(&run);
    let whole = Viewport::whole(layout.end, 800.0);
    let f = frame(&layout, layout.events, run.sim.now().0, whole);
    assert!(f.simplified);
    assert!(f.arrows.len() <= MAX_ARROWS && f.marks.len() <= MAX_MARKS && f.bars.len() <= MAX_BARS);
    let rejected_in_layout = layout
        .marks
        .iter()
        .any(|m| matches!(m.kind, MarkKind::Rejected { .. }));
    let rejected_in_frame = f
        .marks
        .iter()
        .any(|m| matches!(m.kind, MarkKind::Rejected { .. }));
    assert_eq!(
        rejected_in_frame, rejected_in_layout,
        "a rejection is never thinned away"
    );
    // It opens on a stretch of itself, drawn in full.
    let opening = Viewport::opening(&layout, 800.0);
    assert!(opening.span < whole.span / 10.0);
    let near_start = frame(&layout, 2000, run.sim.trace()[1999].time.0, opening);
    assert!(
        !near_start.simplified,
        "a stretch of ~400 events is drawn in full"
    );
}

#[test]
fn a_drawn_arrowhead_points_along_its_shaft_past_the_end() {
    let arrow = |x2: f64, y2: f64| ArrowShape {
        message: lockstep_sim::world::ids::MessageId(1),
        label: "grant",
        state: ArrowState::Delivered,
        x1: 100.0,
        y1: 50.0,
        x2,
        y2,
        due: None,
        sent_event: 0,
    };
    let near =
        |(x, y): (f64, f64), (ex, ey): (f64, f64)| (x - ex).abs() < 1e-9 && (y - ey).abs() < 1e-9;
    let [point, left, right] = arrow(200.0, 50.0).head();
    assert!(near(point, (201.05, 50.0)), "{point:?}");
    assert!(near(left, (200.0 - 9.45, 44.75)), "{left:?}");
    assert!(near(right, (200.0 - 9.45, 55.25)), "{right:?}");
    // Straight down: the point is below the end, the corners either side of the shaft.
    let [point, left, right] = arrow(100.0, 150.0).head();
    assert!(near(point, (100.0, 151.05)), "{point:?}");
    assert!(
        near(left, (105.25, 140.55)) && near(right, (94.75, 140.55)),
        "{left:?} {right:?}"
    );
}
