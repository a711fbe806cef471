//! The recordings shipped with the site, as the page shows them: each file listed reads and
//! plays its scenario, every file is listed, and S2's recording is drawn and judged as
//! PostgreSQL ran it — the paused client's belief outlasting its lease, its write with 33
//! refused below 34 — beside the simulation, stepped by time.

use super::RecordedRun;
use super::catalogue::{RECORDINGS, find, of_scenario};
use super::events::What;
use super::side_by_side::SideBySide;
use crate::layout::frame::Viewport;
use crate::layout::{LaneRole, MarkKind, SpanKind};
use crate::test_files::loaded;
use lockstep_sim::story::recorded::RecordedHistory;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::vocabulary::message::Refusal;
use lockstep_sim::world::token::FencingToken;
use std::path::PathBuf;

fn content(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../content")
        .join(file)
}

fn history(id: &str) -> RecordedHistory {
    let recording = find(id).unwrap_or_else(|| panic!("{id} is listed"));
    let text =
        std::fs::read_to_string(content(&recording.file())).unwrap_or_else(|e| panic!("{id}: {e}"));
    RecordedHistory::parse(&text).unwrap_or_else(|e| panic!("{id}: {e}"))
}

#[test]
fn every_recording_is_listed_reads_and_plays_its_scenario() {
    for recording in RECORDINGS {
        let history = history(&recording.id());
        assert_eq!(history.scenario.as_deref(), Some(recording.scenario));
        assert!(
            loaded(recording.scenario).is_some(),
            "{} is built in",
            recording.scenario
        );
        assert!(of_scenario(recording.scenario).any(|r| r == &recording));
        assert!(
            history.recorded.by.starts_with("lockstep-real"),
            "{}",
            recording.id()
        );
    }
    let files = std::fs::read_dir(content("recorded")).expect("content/recorded/");
    for file in files {
        let name = file
            .expect("an entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        let id = name.trim_end_matches(".json");
        assert!(
            find(id).is_some(),
            "{name} is in content/recorded/ but not in RECORDINGS"
        );
    }
}

/// The real-runs page lists the recordings as the catalogue orders its scenarios (S1 first),
/// each with one sentence on what it shows.
#[test]
fn recordings_are_in_catalogue_order_each_saying_what_it_shows() {
    let place = |id: &str| {
        lockstep_sim::scenario::catalogue::INDEX
            .iter()
            .position(|e| e.id == id)
            .unwrap_or_else(|| panic!("{id} is in the catalogue"))
    };
    let places: Vec<usize> = RECORDINGS.iter().map(|r| place(r.scenario)).collect();
    assert!(
        places.is_sorted(),
        "not in catalogue order: {:?}",
        RECORDINGS.map(|r| r.scenario)
    );
    assert_eq!(RECORDINGS[0].scenario, "s1-gc-pause-unfenced");
    for recording in RECORDINGS {
        let shows = recording.shows;
        assert!(
            shows.ends_with('.') && shows.matches(". ").count() == 0,
            "one sentence: {shows}"
        );
        assert!(shows.split_whitespace().count() <= 30, "one line: {shows}");
    }
}

/// Each recording opens on its timeline at a phone's width, a laptop's and a wide screen's
/// (a recorded S18 once panicked there).
#[test]
fn every_recording_opens_at_every_width() {
    for recording in RECORDINGS {
        let run = RecordedRun::of(history(&recording.id()));
        for width in [330.0, 800.0, 1280.0] {
            let view = Viewport::opening(&run.layout, width);
            assert!(view.span > 0.0, "{} at {width}", recording.id());
        }
    }
}

/// A recording ends on its last event: "Whole run" draws that event's mark whole, on a phone's
/// plot and a laptop's, not cut by the plot's right edge.
#[test]
fn the_whole_of_every_recording_draws_its_last_mark_inside_the_plot() {
    use crate::layout::frame::{LaneNames, frame, glyph_box};
    let mut cut = Vec::new();
    for recording in RECORDINGS {
        let run = RecordedRun::of(history(&recording.id()));
        let layout = &run.layout;
        for width in [330.0, 800.0] {
            let view = Viewport::whole(layout.end, width);
            let f = frame(layout, layout.events, layout.end, view, LaneNames::Above);
            for mark in &f.marks {
                let glyph = glyph_box(mark);
                if glyph.x < f.offset || glyph.right() > f.offset + f.width {
                    cut.push(format!(
                        "{} at {width} px: event {}",
                        recording.id(),
                        mark.event
                    ));
                }
            }
        }
    }
    assert!(cut.is_empty(), "marks cut by the edge: {}", cut.join(", "));
}

#[test]
fn s2_recorded_is_drawn_as_postgresql_ran_it() {
    let run = RecordedRun::of(history("s2-gc-pause-fenced.postgres"));
    let layout = &run.layout;
    let names: Vec<(&str, LaneRole)> = layout
        .lanes
        .iter()
        .map(|l| (l.name.as_str(), l.role))
        .collect();
    assert_eq!(
        names[..2],
        [
            ("client-a", LaneRole::Client),
            ("client-b", LaneRole::Client)
        ]
    );
    assert_eq!(names[3].1, LaneRole::Resource);
    let refused = layout
        .marks
        .iter()
        .find_map(|m| match m.kind {
            MarkKind::Rejected { refusal } => Some(refusal),
            _ => None,
        })
        .expect("a refused write");
    assert_eq!(
        refused,
        Some(Refusal::StaleToken {
            presented: FencingToken(33),
            required: FencingToken(34)
        })
    );
    let pause = layout
        .spans
        .iter()
        .find(|s| s.kind == SpanKind::Pause)
        .expect("a pause");
    assert_eq!((pause.lane, pause.from.time), (0, 50));
    let belief_a = layout
        .spans
        .iter()
        .find(|s| s.lane == 0 && matches!(s.kind, SpanKind::Belief { .. }))
        .expect("client-a believes");
    let lease_a = layout
        .spans
        .iter()
        .find(|s| {
            matches!(
                s.kind,
                SpanKind::Lease {
                    token: Some(FencingToken(33)),
                    ..
                }
            )
        })
        .expect("33's lease");
    let end = |s: &crate::layout::Span| s.to.map(|m| m.time).expect("ends");
    assert!(
        end(belief_a) > end(lease_a) + 900,
        "the belief outlasts the lease by the pause"
    );
    assert!(
        run.events
            .iter()
            .any(|e| matches!(e.what, What::LeaseRanOut(_)))
    );
    let band = layout
        .bands
        .iter()
        .find(|b| b.invariant == Invariant::OneBeliever)
        .expect("band");
    assert_eq!(
        band.lanes,
        [1, 0],
        "client-b granted while client-a believes"
    );
    // Marks come in moment order, as the frame's slicing needs.
    assert!(layout.marks.windows(2).all(|w| w[0].at <= w[1].at));
}

#[test]
fn side_by_side_steps_both_runs_by_one_clock() {
    let scenario = loaded("s2-gc-pause-fenced").expect("S2");
    let both =
        SideBySide::of(history("s2-gc-pause-fenced.postgres"), Some(&scenario)).expect("runs");
    assert!(both.times.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(both.time_at(0), 0);
    let last = both.time_at(both.steps());
    assert_eq!(
        both.simulated_position(last),
        both.simulated
            .as_ref()
            .map_or(0, |s| s.run.sim.trace().len())
    );
    let rows = both.verdicts_by(last);
    let believer = rows
        .iter()
        .find(|r| r.invariant == Invariant::OneBeliever)
        .expect("row");
    assert_eq!(believer.simulated, Some(true));
    assert!(believer.recorded.is_some());
    assert!(
        rows.iter()
            .filter(|r| r.invariant != Invariant::OneBeliever)
            .all(|r| { r.simulated == Some(false) && r.recorded.is_none() })
    );
    let before = both.verdicts_by(1000);
    assert!(
        before
            .iter()
            .all(|r| r.simulated == Some(false) && r.recorded.is_none()),
        "{before:?}"
    );
    let words = both.recorded.latest_words(last).expect("words");
    assert!(words.contains("release"), "{words}");
}

/// S9 on a Redis primary and its replica: the lanes are the simulation's, client-b's lease is
/// drawn on the replica that granted it, and client-a's ends with the primary's crash.
#[test]
fn s9_recorded_draws_each_lease_on_the_node_that_granted_it() {
    let run = RecordedRun::of(history("s9-failover-loses-the-lock.redis-failover"));
    let scenario = loaded("s9-failover-loses-the-lock").expect("S9");
    let simulated = crate::layout::Layout::of(
        &crate::run::Run::record(&scenario, scenario.seed, &[]).expect("runs"),
    );
    let names = |layout: &crate::layout::Layout| -> Vec<String> {
        layout.lanes.iter().map(|l| l.name.clone()).collect()
    };
    assert_eq!(
        names(&run.layout),
        names(&simulated),
        "the same lanes, in the same order"
    );
    let lane = |name: &str| {
        run.layout
            .lanes
            .iter()
            .position(|l| l.name == name)
            .expect(name)
    };
    let leases: Vec<(usize, u64, Option<u64>)> = run
        .layout
        .spans
        .iter()
        .filter(|s| matches!(s.kind, SpanKind::Lease { .. }))
        .map(|s| (s.lane, s.from.time, s.to.map(|m| m.time)))
        .collect();
    assert_eq!(leases.len(), 2, "{leases:?}");
    assert_eq!(
        (leases[0].0, leases[0].2),
        (lane("redis-primary"), Some(50)),
        "ended by the crash"
    );
    assert_eq!(leases[1].0, lane("redis-replica"));
    let down = run
        .layout
        .spans
        .iter()
        .find(|s| s.kind == SpanKind::Crash)
        .expect("down");
    assert_eq!(
        (down.lane, down.from.time, down.to),
        (lane("redis-primary"), 50, None)
    );
    let faults: Vec<(usize, MarkKind)> = run
        .layout
        .marks
        .iter()
        .filter(|m| m.kind == MarkKind::Intervention)
        .map(|m| (m.lane, m.kind))
        .collect();
    assert_eq!(
        faults.iter().map(|f| f.0).collect::<Vec<_>>(),
        [lane("redis-primary"), lane("redis-replica")],
        "the crash, then the failover"
    );
    assert_eq!(
        super::side_by_side::SideBySide::of(run.history.clone(), Some(&scenario))
            .expect("runs")
            .verdicts_by(u64::MAX)
            .iter()
            .filter(|r| r.simulated != Some(r.recorded.is_some()))
            .count(),
        0,
        "the recording and the simulation agree"
    );
}

/// S10 on five real Redis nodes: the same lanes as the simulation, the four cut links, the
/// requests over them drawn lost (no answer came), client-1's lease on redis-c ended by the
/// node's clock jump, and each moment's words naming the node asked.
#[test]
fn s10_recorded_draws_cuts_lost_requests_and_the_jumped_lease() {
    use crate::layout::Fate;
    use lockstep_sim::vocabulary::loss::Loss;
    let run = RecordedRun::of(history("s10-redlock-clock-jump.redlock"));
    let scenario = loaded("s10-redlock-clock-jump").expect("S10");
    let simulated = crate::layout::Layout::of(
        &crate::run::Run::record(&scenario, scenario.seed, &[]).expect("runs"),
    );
    let names = |layout: &crate::layout::Layout| -> Vec<String> {
        layout.lanes.iter().map(|l| l.name.clone()).collect()
    };
    assert_eq!(names(&run.layout), names(&simulated));
    let name = |lane: usize| run.layout.lanes[lane].name.as_str();
    let cuts: Vec<(&str, &str)> = run
        .layout
        .cuts
        .iter()
        .map(|c| (name(c.from_lane), name(c.to_lane)))
        .collect();
    assert_eq!(
        cuts,
        [
            ("client-1", "redis-d"),
            ("client-1", "redis-e"),
            ("client-2", "redis-a"),
            ("client-2", "redis-b")
        ]
    );
    for (i, op) in run.history.operations.iter().enumerate() {
        let arrow = &run.layout.arrows[i];
        match op.answered_ms {
            Some(_) => assert_eq!(arrow.fate, Fate::Delivered, "{op:?}"),
            None => {
                assert_eq!(arrow.fate, Fate::Lost(Loss::Partition), "{op:?}");
                assert_eq!(arrow.ended, Some(arrow.sent), "{op:?}");
            }
        }
    }
    let on_c = run
        .layout
        .spans
        .iter()
        .find(|s| matches!(s.kind, SpanKind::Lease { .. }) && name(s.lane) == "redis-c")
        .expect("client-1's lease on redis-c");
    assert_eq!(
        on_c.to.map(|m| m.time),
        Some(300),
        "ended by the clock jump"
    );
    let words: Vec<String> = run
        .events
        .iter()
        .map(|e| super::events::words(&run.history, e))
        .collect();
    assert!(
        words
            .iter()
            .any(|w| w == "client-1 asks redis-d for the lock: no answer ever comes"),
        "{words:?}"
    );
    assert!(
        words
            .iter()
            .any(|w| w.starts_with("redis-c grants client-2 the lock")),
        "{words:?}"
    );
}

/// S8 on PostgreSQL with renewals: each renewal an arrow to the lock service, the lease one bar
/// that the renewals carry past its first TTL until the release, and the write landing after
/// the check from the last renewal.
#[test]
fn s8_recorded_carries_the_lease_by_its_renewals() {
    let run = RecordedRun::of(history("s8-held-safely-corrected.postgres"));
    let renewals = run
        .layout
        .arrows
        .iter()
        .filter(|a| a.label == "renew")
        .count();
    assert!(renewals >= 5, "{renewals} renewals in 2 s of work");
    let lease = run
        .layout
        .spans
        .iter()
        .find(|s| matches!(s.kind, SpanKind::Lease { .. }))
        .expect("the lease");
    let to = lease.to.map(|m| m.time).expect("released");
    assert!(
        to > 2_000,
        "the lease reaches the release at {to} ms, past its first TTL"
    );
    assert!(
        run.layout.marks.iter().any(|m| matches!(
            m.kind,
            MarkKind::Accepted {
                token: Some(FencingToken(33))
            }
        )),
        "the write with 33 lands"
    );
}

/// etcd's S18: client-2 asked first, but both timelines list the clients as the scenario does,
/// and the recording draws the two members client-1 was cut from though it sent them nothing.
#[test]
fn a_recording_beside_its_simulation_has_the_same_lanes_in_the_same_order() {
    let id = "s18-etcd-3-4-3-lock-bug";
    let scenario = loaded(id).expect("built in");
    let side = SideBySide::of(history(&format!("{id}.etcd")), Some(&scenario)).expect("runs");
    let names = |lanes: &[crate::layout::Lane]| -> Vec<String> {
        lanes.iter().map(|l| l.name.clone()).collect()
    };
    let simulated = side.simulated.as_ref().expect("simulated");
    assert_eq!(
        names(&side.recorded.layout.lanes),
        names(&simulated.layout.lanes)
    );
    assert_eq!(
        names(&side.recorded.layout.lanes)[..3],
        ["client-1", "client-2", "client-3"]
    );
    let alone = RecordedRun::of(history(&format!("{id}.etcd")));
    assert_eq!(
        alone.layout.lanes[0].name, "client-2",
        "alone, a recording lists its clients in the order they first asked"
    );
}

/// A write its client never heard answered, which the resource's log says it applied (S4's
/// delayed packet): drawn as reaching the resource when it was applied, marked stale there,
/// and said in words at that moment.
#[test]
fn a_write_applied_by_the_resources_log_is_drawn_where_it_landed() {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs/examples/history-delayed-write.json"),
    )
    .expect("the documented example");
    let run = RecordedRun::of(RecordedHistory::parse(&text).expect("reads"));
    let write = &run.layout.arrows[1];
    assert_eq!(write.label, "write");
    assert_eq!(write.fate, crate::layout::Fate::Delivered);
    assert_eq!(write.due, 1606);
    let stale: Vec<(u64, MarkKind)> = run
        .layout
        .marks
        .iter()
        .filter(|m| matches!(m.kind, MarkKind::Stale { .. }))
        .map(|m| (m.at.time, m.kind))
        .collect();
    assert_eq!(
        stale,
        [(
            1606,
            MarkKind::Stale {
                token: FencingToken(33)
            }
        )]
    );
    let applied = run
        .events
        .iter()
        .find(|e| e.what == What::Applied(1))
        .expect("the applied moment");
    assert_eq!(applied.at_ms, 1606);
    assert_eq!(
        super::events::words(&run.history, applied),
        "register applies client-a's write of 33 with token 33, sent at 104 ms, by its own log; \
         no answer reaches client-a"
    );
}
