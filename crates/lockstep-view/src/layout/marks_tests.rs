//! The marks of harm (a stale write, a lost update), the cuts, and the violation bands' lanes
//! and counts: what a learner must tell apart on the timeline.

use super::frame::{Frame, LaneNames, Viewport, frame};
use super::shapes::{LANE_HEIGHT, LabelOf};
use super::*;
use crate::stage::geometry::Placement;
use crate::stage::scene::{SCISSORS_RADIUS, Scene};
use lockstep_sim::scenario::catalogue;
use lockstep_sim::vocabulary::happening::Direction;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::world::intervention::{Action, Intervention};
use lockstep_sim::world::time::VirtualTime;

fn build_with(id: &str, log: &[Intervention<String>]) -> (Run, Layout) {
    let scenario = catalogue::find(id)
        .and_then(|b| b.load().ok())
        .unwrap_or_else(|| panic!("{id} is in the catalogue"));
    let run = Run::record(&scenario, scenario.seed, log).unwrap_or_else(|e| panic!("{e}"));
    let layout = Layout::of(&run);
    (run, layout)
}

fn build(id: &str) -> (Run, Layout) {
    build_with(id, &[])
}

fn lane_named(layout: &Layout, name: &str) -> usize {
    layout
        .lanes
        .iter()
        .position(|l| l.name == name)
        .unwrap_or_else(|| panic!("no lane {name}"))
}

fn whole(layout: &Layout, width: f64) -> Frame {
    let now = layout.end;
    frame(
        layout,
        layout.events,
        now,
        Viewport::whole(layout.end, width),
        LaneNames::Beside,
    )
}

fn band_of(layout: &Layout, invariant: Invariant) -> Option<&Band> {
    layout.bands.iter().find(|b| b.invariant == invariant)
}

#[test]
fn s1s_stale_write_gets_the_stale_mark_and_the_good_write_keeps_its_tick() {
    let (_, layout) = build("s1-gc-pause-unfenced");
    let resource = lane_named(&layout, "resource");
    let on_resource: Vec<MarkKind> = layout
        .marks
        .iter()
        .filter(|m| m.lane == resource)
        .map(|m| m.kind)
        .collect();
    assert!(
        on_resource.contains(&MarkKind::Accepted {
            token: Some(FencingToken(34))
        }),
        "client-b's write with 34 is good: {on_resource:?}"
    );
    assert!(
        on_resource.contains(&MarkKind::Stale {
            token: FencingToken(33)
        }),
        "client-a's write with 33, after 34 was granted, is stale: {on_resource:?}"
    );
    let stale = layout
        .marks
        .iter()
        .find(|m| matches!(m.kind, MarkKind::Stale { .. }))
        .expect("a stale mark");
    let band = band_of(&layout, Invariant::NoStaleWrite).expect("no_stale_write broke");
    assert_eq!(
        stale.at, band.from,
        "the mark sits where the invariant broke"
    );
    assert_eq!(
        band.lanes,
        [lane_named(&layout, "client-a")],
        "client-a wrote it"
    );
    let lost = band_of(&layout, Invariant::NoLostUpdate).expect("an update was lost");
    assert_eq!(lost.lanes, band.lanes);
}

#[test]
fn with_fencing_on_no_write_is_marked_stale() {
    let (_, layout) = build("s2-gc-pause-fenced");
    assert!(
        layout
            .marks
            .iter()
            .all(|m| !matches!(m.kind, MarkKind::Stale { .. } | MarkKind::LostUpdate { .. }))
    );
    assert!(
        layout
            .marks
            .iter()
            .any(|m| matches!(m.kind, MarkKind::Accepted { .. }))
    );
}

/// Over the whole catalogue, the marks agree with the trace: there is a stale mark exactly when
/// `no_stale_write` broke, the first at the event that broke it, and likewise for lost updates
/// (whose write may be marked stale, which comes first).
#[test]
fn harm_marks_agree_with_the_invariants_in_every_catalogue_scenario() {
    for entry in catalogue::BUILT_IN {
        let (_, layout) = build(entry.id);
        let first = |f: fn(&MarkKind) -> bool| layout.marks.iter().find(|m| f(&m.kind));
        let stale = first(|k| matches!(k, MarkKind::Stale { .. }));
        assert_eq!(
            stale.map(|m| m.at),
            band_of(&layout, Invariant::NoStaleWrite).map(|b| b.from),
            "{}",
            entry.id
        );
        if let Some(band) = band_of(&layout, Invariant::NoLostUpdate) {
            assert!(
                layout.marks.iter().any(|m| m.at == band.from
                    && matches!(m.kind, MarkKind::Stale { .. } | MarkKind::LostUpdate { .. })),
                "{}: the write that lost an update is marked",
                entry.id
            );
        } else {
            assert!(
                first(|k| matches!(k, MarkKind::LostUpdate { .. })).is_none(),
                "{}",
                entry.id
            );
        }
    }
}

#[test]
fn a_stale_write_is_labelled_as_stale_beside_its_own_glyph() {
    let (_, layout) = build("s1-gc-pause-unfenced");
    let shown = whole(&layout, 800.0);
    let stale = shown
        .marks
        .iter()
        .position(|m| matches!(m.kind, MarkKind::Stale { .. }))
        .expect("in view");
    let label = shown
        .labels
        .iter()
        .find(|l| l.of == LabelOf::Mark(stale))
        .expect("labelled");
    assert_eq!(label.text, "stale 33");
}

#[test]
fn a_partition_is_a_cut_on_both_lanes_and_a_cut_link_on_the_stage() {
    let (run, layout) = build("s14-consensus-client-partitioned");
    let a = lane_named(&layout, "client-a");
    let cut = layout.cuts.first().expect("client-a is cut off");
    assert_eq!(cut.from_lane, a);
    assert!(cut.both_ways && cut.to.is_none(), "never healed: {cut:?}");
    let before = frame(
        &layout,
        cut.from.event,
        cut.from.time,
        Viewport::whole(layout.end, 800.0),
        LaneNames::Beside,
    );
    assert!(before.cuts.is_empty(), "not cut yet");
    let after = whole(&layout, 800.0);
    assert_eq!(after.cuts.len(), layout.cuts.len());
    assert!(after.cuts.iter().all(|c| c.open && c.width > 0.0));
    let placement = Placement::of(&layout.lanes.iter().map(|l| l.role).collect::<Vec<_>>());
    let position = cut.from.event + 1;
    let sim = run.sim_at(position).expect("sim");
    let scene = Scene::of(&layout, &placement, &sim, position, cut.from.time);
    let link = scene.cuts.first().expect("the stage shows the cut");
    assert_eq!(link.from_lane, a);
    assert!(link.sentence.starts_with("link between client-a and "));
    let scene = Scene::of(&layout, &placement, &sim, cut.from.event, cut.from.time);
    assert!(scene.cuts.is_empty(), "before it: no cut link");
    // Every "✂" clear of every box and of the others, where the whole run's cuts stand.
    let end = run.sim_at(layout.events).expect("sim");
    let scene = Scene::of(&layout, &placement, &end, layout.events, layout.end);
    assert_eq!(scene.cuts.len(), 3, "cut off from all three replicas");
    for (index, link) in scene.cuts.iter().enumerate() {
        let p = link.middle;
        assert!(
            placement.boxes.iter().all(|b| !b.holds(p, SCISSORS_RADIUS)),
            "{}: ✂ on a box",
            link.sentence
        );
        assert!(scene.cuts[..index].iter().all(|other| {
            (other.middle.x - p.x).hypot(other.middle.y - p.y) >= 2.0 * SCISSORS_RADIUS
        }));
    }
}

#[test]
fn a_heal_ends_the_cut_on_the_timeline_and_the_stage() {
    let at = |ms: u64| VirtualTime(ms);
    let log = [
        Intervention {
            at_ms: at(300),
            action: Action::Partition {
                from: "client-a".to_owned(),
                to: "lock-service".to_owned(),
                direction: Direction::OneWay,
            },
        },
        Intervention {
            at_ms: at(900),
            action: Action::Heal {
                a: "lock-service".to_owned(),
                b: "client-a".to_owned(),
            },
        },
    ];
    let (run, layout) = build_with("s2-gc-pause-fenced", &log);
    let cut = layout.cuts.first().expect("a cut");
    let healed = cut.to.expect("healed");
    assert!(!cut.both_ways);
    assert_eq!((cut.from.time, healed.time), (300, 900));
    let shown = whole(&layout, 800.0);
    assert!(!shown.cuts[0].open);
    let placement = Placement::of(&layout.lanes.iter().map(|l| l.role).collect::<Vec<_>>());
    let position = healed.event + 1;
    let sim = run.sim_at(position).expect("sim");
    let scene = Scene::of(&layout, &placement, &sim, position, healed.time);
    assert!(scene.cuts.is_empty(), "healed");
    let position = healed.event;
    let sim = run.sim_at(position).expect("sim");
    let scene = Scene::of(&layout, &placement, &sim, position, healed.time);
    assert_eq!(scene.cuts.len(), 1);
    assert!(scene.cuts[0].sentence.starts_with("link from client-a to "));
}

#[test]
fn two_believers_are_the_lanes_of_their_band_and_its_label_sits_on_one_of_them() {
    let (_, layout) = build("s2-gc-pause-fenced");
    let band = band_of(&layout, Invariant::OneBeliever).expect("two believers");
    let clients = [
        lane_named(&layout, "client-a"),
        lane_named(&layout, "client-b"),
    ];
    assert_eq!(band.lanes, clients);
    let shown = whole(&layout, 800.0);
    let index = shown
        .bands
        .iter()
        .position(|b| b.invariant == Invariant::OneBeliever)
        .expect("in view");
    let label = shown
        .labels
        .iter()
        .find(|l| l.of == LabelOf::Band(index))
        .expect("labelled");
    let lane = (label.bounds.y / LANE_HEIGHT).floor() as usize;
    assert!(clients.contains(&lane), "label on lane {lane}");
}

/// A run that breaks one belief ten times gets one label counting them, not ten.
#[test]
fn repeated_bands_are_counted_on_one_label() {
    let lanes = ["client-a", "client-b", "lock-service", "resource"];
    let moment = |event: usize| Moment {
        event,
        time: event as u64 * 100,
    };
    let layout = Layout {
        lanes: lanes
            .iter()
            .enumerate()
            .map(|(i, name)| Lane {
                node: lockstep_sim::world::ids::NodeId(i as u16),
                name: (*name).to_owned(),
                role: LaneRole::Client,
            })
            .collect(),
        bands: (0..10)
            .map(|i| Band {
                invariant: Invariant::OneBeliever,
                from: moment(2 * i),
                to: Some(moment(2 * i + 1)),
                lanes: vec![0, 1],
            })
            .collect(),
        end: 2000,
        events: 20,
        ..Layout::default()
    };
    let shown = whole(&layout, 800.0);
    assert_eq!(shown.bands.len(), 10);
    assert_eq!(shown.bands[0].repeats, 10);
    assert!(shown.bands[1..].iter().all(|b| b.repeats == 0));
    let texts: Vec<&str> = shown
        .labels
        .iter()
        .filter(|l| matches!(l.of, LabelOf::Band(_)))
        .map(|l| l.text.as_str())
        .collect();
    assert_eq!(
        texts,
        ["✗ At most one client believes it holds the lock ×10"]
    );
}

/// S1's stale write breaks two data invariants where client-a's lane is all pause: their labels
/// go on the lanes nearest it rather than into the tooltip alone.
#[test]
fn a_data_band_whose_lane_is_full_is_labelled_on_the_nearest_free_lane() {
    let (_, layout) = build("s1-gc-pause-unfenced");
    for width in [800.0, 330.0] {
        let shown = whole(&layout, width);
        let stale = shown
            .bands
            .iter()
            .position(|b| b.invariant == Invariant::NoStaleWrite)
            .expect("in view");
        assert_eq!(
            shown.bands[stale].label,
            super::shapes::LabelState::Shown,
            "at {width} px"
        );
    }
}

/// An overview keeps one mark per spot, the most telling: a stale write over the good writes
/// around it.
#[test]
fn the_overview_keeps_a_stale_write_over_the_good_ones_beside_it() {
    let write = |event: usize, kind: MarkKind| Mark {
        lane: 0,
        kind,
        at: Moment {
            event,
            time: event as u64,
        },
    };
    let good = MarkKind::Accepted {
        token: Some(FencingToken(2)),
    };
    let stale = MarkKind::Stale {
        token: FencingToken(1),
    };
    let mut marks: Vec<Mark> = (0..600).map(|event| write(event, good)).collect();
    marks[301] = write(301, stale);
    let layout = Layout {
        lanes: vec![Lane {
            node: lockstep_sim::world::ids::NodeId(0),
            name: "resource".to_owned(),
            role: LaneRole::Resource,
        }],
        marks,
        end: 600,
        events: 600,
        ..Layout::default()
    };
    let shown = whole(&layout, 300.0);
    assert!(shown.simplified);
    assert!(shown.marks.len() < 600);
    assert!(shown.marks.iter().any(|m| m.kind == stale));
}
