//! Properties of the timeline's geometry over every scenario of the catalogue: labels clear of
//! each other, of the hatching and of the glyphs, inside the view; the opening view on the
//! stretch where things happen.

use super::frame::{Frame, LANE_HEIGHT, LaneNames, Viewport, frame, glyph_box, lane_name_box};
use super::labels::Rect;
use super::shapes::LabelOf;
use super::*;
use lockstep_sim::scenario::catalogue;

/// The plot's width at 1280 px beside the stage, and on a 375-px phone.
const WIDTHS: [(f64, LaneNames); 2] = [(800.0, LaneNames::Beside), (330.0, LaneNames::Above)];

fn every_run() -> Vec<(&'static str, Run, Layout)> {
    catalogue::BUILT_IN
        .iter()
        .map(|built| {
            let scenario = built.load().unwrap_or_else(|e| panic!("{}: {e}", built.id));
            let run = Run::record(&scenario, scenario.seed, &[])
                .unwrap_or_else(|e| panic!("{}: {e}", built.id));
            let layout = Layout::of(&run);
            (built.id, run, layout)
        })
        .collect()
}

fn rect(x: f64, y: f64, width: f64, height: f64) -> Rect {
    Rect {
        x,
        y,
        width,
        height,
    }
}

/// Everything wrong with the labels of one frame, in words.
fn label_problems(f: &Frame, layout: &Layout, names: LaneNames) -> Vec<String> {
    let mut problems = Vec::new();
    let mut off_limits: Vec<(String, Rect)> = Vec::new();
    for bar in &f.bars {
        if matches!(bar.kind, SpanKind::Overhang | SpanKind::Pause) {
            let what = format!("{:?} hatching on lane {}", bar.kind, bar.lane);
            off_limits.push((what, rect(bar.x, bar.y, bar.width, bar.height)));
        }
    }
    for mark in &f.marks {
        let what = format!("the {:?} glyph on lane {}", mark.kind, mark.lane);
        off_limits.push((what, glyph_box(mark)));
    }
    if names == LaneNames::Above {
        for (index, lane) in layout.lanes.iter().enumerate() {
            off_limits.push((
                format!("the name of {}", lane.name),
                lane_name_box(index, &lane.name, f.offset),
            ));
        }
    }
    // A little inside the plot's edges, where no outline is cut.
    let view = super::annotate::label_area(f, layout);
    for (index, a) in f.labels.iter().enumerate() {
        if let LabelOf::Band(band) = a.of {
            let lane = (a.bounds.y / LANE_HEIGHT).floor();
            let on = f.bands[band].lanes.iter().any(|&l| l as f64 == lane);
            if !on || a.bounds.bottom() > (lane + 1.0) * LANE_HEIGHT + 1e-9 {
                problems.push(format!(
                    "{:?} sits on lane {lane}, not on a lane that broke it ({:?})",
                    a.text, f.bands[band].lanes
                ));
            }
        }
        for b in &f.labels[index + 1..] {
            if a.bounds.intersects(&b.bounds) {
                problems.push(format!("{:?} overlaps {:?}", a.text, b.text));
            }
        }
        for (what, obstacle) in &off_limits {
            if a.bounds.intersects(obstacle) {
                problems.push(format!("{:?} sits on {what}", a.text));
            }
        }
        if !a.bounds.inside(&view) {
            problems.push(format!("{:?} is cut off at the edge of the view", a.text));
        }
    }
    let half = super::frame::NOW_TAG_WIDTH / 2.0;
    if f.now_x.is_some()
        && (f.now_tag_x - half < f.offset - 1e-6 || f.now_tag_x + half > f.offset + f.width + 1e-6)
    {
        problems.push("the \"now\" tag is cut off".to_owned());
    }
    let now_half = half;
    for tick in &f.ticks {
        let half = tick.label.chars().count() as f64 * super::labels::CHAR_WIDTH / 2.0;
        if tick.label_x - half < f.offset - 1e-6 || tick.label_x + half > f.offset + f.width + 1e-6
        {
            problems.push(format!("the axis label {:?} is cut off", tick.label));
        }
        if f.now_x.is_some()
            && !tick.label.is_empty()
            && (tick.label_x - f.now_tag_x).abs() < half + now_half
        {
            problems.push(format!(
                "the axis label {:?} is under the \"now\" tag",
                tick.label
            ));
        }
    }
    problems
}

#[test]
fn no_label_overlaps_another_the_hatching_a_glyph_or_the_edge_in_any_scenario() {
    let mut problems = Vec::new();
    let mut labels = 0;
    for (id, run, layout) in every_run() {
        for (width, names) in WIDTHS {
            let views = [
                ("opening", Viewport::opening(&layout, width)),
                ("whole", Viewport::whole(layout.end, width)),
            ];
            for (view_name, view) in views {
                let f = frame(&layout, layout.events, run.sim.now().0, view, names);
                labels += f.labels.len();
                problems.extend(
                    label_problems(&f, &layout, names)
                        .into_iter()
                        .map(|p| format!("{id}, {width} px, {view_name} view: {p}")),
                );
            }
        }
    }
    assert!(
        labels > 500,
        "only {labels} labels placed: the test would prove little"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_shape_that_has_a_label_either_shows_it_or_keeps_it_for_hover() {
    use super::frame::LabelState;
    for (id, run, layout) in every_run() {
        let view = Viewport::opening(&layout, 330.0);
        let f = frame(
            &layout,
            layout.events,
            run.sim.now().0,
            view,
            LaneNames::Above,
        );
        for (index, bar) in f.bars.iter().enumerate() {
            let shown = f.labels.iter().any(|l| l.of == LabelOf::Bar(index));
            let expected = match bar.kind {
                SpanKind::Overhang | SpanKind::Pause => LabelState::Unlabelled,
                _ if shown => LabelState::Shown,
                _ => LabelState::HoverOnly,
            };
            assert_eq!(bar.label, expected, "{id}: {bar:?}");
        }
    }
}

#[test]
fn client_b_s_token_34_shows_on_its_bars_and_redis_leases_name_their_holder() {
    let runs = every_run();
    let find = |id: &str| {
        runs.iter()
            .find(|(i, _, _)| *i == id)
            .expect("in the catalogue")
    };
    let (_, run, layout) = find("s2-gc-pause-fenced");
    let f = frame(
        layout,
        layout.events,
        run.sim.now().0,
        Viewport::opening(layout, 800.0),
        LaneNames::Beside,
    );
    let b = layout
        .lanes
        .iter()
        .position(|l| l.name == "client-b")
        .expect("client-b");
    let on_b: Vec<&str> = f
        .labels
        .iter()
        .filter(|l| matches!(l.of, LabelOf::Bar(_)) && l.lane == Some(b))
        .map(|l| l.text.as_str())
        .collect();
    assert!(
        on_b.iter().any(|t| t.contains("34")),
        "client-b's bars say {on_b:?}"
    );
    let (_, run, layout) = find("s10-redlock-clock-jump");
    let f = frame(
        layout,
        layout.events,
        run.sim.now().0,
        Viewport::opening(layout, 800.0),
        LaneNames::Beside,
    );
    for (index, lane) in layout.lanes.iter().enumerate() {
        if lane.role != LaneRole::Service {
            continue;
        }
        let leases = f.labels.iter().filter(|l| {
            matches!(l.of, LabelOf::Bar(i) if matches!(f.bars[i].kind, SpanKind::Lease { .. }))
                && l.lane == Some(index)
        });
        assert!(leases.count() > 0, "{}'s leases carry no label", lane.name);
    }
}

#[test]
fn the_opening_view_frames_where_things_happen_and_the_decisive_moment() {
    let mut problems = Vec::new();
    for (id, _, layout) in every_run() {
        let Some((first, last)) = layout.activity() else {
            problems.push(format!("{id}: nothing happens"));
            continue;
        };
        for (width, _) in WIDTHS {
            let view = Viewport::opening(&layout, width);
            let (from, to) = (view.start, view.start + view.span);
            if let Some(decisive) = layout.decisive() {
                let t = decisive.time as f64;
                if !(from < t && t < to) {
                    problems.push(format!(
                        "{id}: the decisive moment at {t} ms is outside {from}..{to}"
                    ));
                }
            }
            let activity = ((last - first) as f64).max(100.0);
            let whole = Viewport::whole(layout.end, width);
            if view.span > 3.0 * activity && view.span < whole.span {
                problems.push(format!(
                    "{id}: the view ({} ms) is over 3× the activity ({activity} ms)",
                    view.span
                ));
            }
            if view.span >= whole.span && whole.span > 3.0 * activity {
                problems.push(format!(
                    "{id}: opens on the whole run ({} ms) for {activity} ms of activity",
                    whole.span
                ));
            }
            if layout.events <= 400 && !(from < first as f64 && last as f64 <= to) {
                problems.push(format!(
                    "{id}: activity {first}..{last} is not all in {from}..{to}"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// "Whole run" draws every mark whole, the last one too, on a phone's plot and a laptop's.
#[test]
fn the_whole_run_draws_every_mark_inside_the_plot() {
    let mut problems = Vec::new();
    for (id, run, layout) in every_run() {
        problems.extend(whole_run_cuts_a_mark(id, &layout, run.sim.now().0));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Each mark of `layout` whose glyph "Whole run" cuts at the plot's edge, in words.
fn whole_run_cuts_a_mark(id: &str, layout: &Layout, now: u64) -> Vec<String> {
    let mut problems = Vec::new();
    for (width, names) in WIDTHS {
        let view = Viewport::whole(layout.end, width);
        let f = frame(layout, layout.events, now, view, names);
        for mark in &f.marks {
            let glyph = glyph_box(mark);
            if glyph.x < f.offset || glyph.right() > f.offset + f.width {
                problems.push(format!(
                    "{id}, {width} px: the {:?} at event {} is cut by the edge",
                    mark.kind, mark.event
                ));
            }
        }
    }
    problems
}

/// "Follow now" at every position of every scenario: the present is always in view, and while
/// the run is young the view is zoomed in on what has happened, so that it fills at least 40 %
/// of the width instead of crowding at the left edge; later it is the chosen view, followed.
#[test]
fn following_now_zooms_in_on_the_start_of_every_run_and_keeps_now_in_view() {
    let mut problems = Vec::new();
    let mut zoomed = 0;
    for (id, run, layout) in every_run() {
        let Some((first, _)) = layout.activity() else {
            continue;
        };
        for (width, _) in WIDTHS {
            let chosen = Viewport::opening(&layout, width);
            for event in run.sim.trace() {
                let now = event.time.0;
                let view = chosen.near_now(first, now, layout.end);
                let t = now as f64;
                if !(view.start <= t && t <= view.start + view.span) {
                    problems.push(format!("{id}, {width} px: now ({now} ms) is out of view"));
                }
                if view == chosen.following(now, layout.end) {
                    continue;
                }
                zoomed += 1;
                let filled = (t - first as f64) / view.span;
                if filled < 0.4 && t - first as f64 > 20.0 {
                    problems.push(format!(
                        "{id}, {width} px: at {now} ms what happened fills {filled:.2} of the view"
                    ));
                }
                if view.span >= chosen.span {
                    problems.push(format!("{id}: zoomed out past the chosen view at {now} ms"));
                }
            }
        }
    }
    assert!(
        zoomed > 100,
        "only {zoomed} zoomed views: the test proves little"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `frame` and the stage cut the marks and the arrows shown at a position, and the marks in
/// view, by binary search: that needs marks in event order and arrows in the order sent.
#[test]
fn marks_and_arrows_come_in_event_order() {
    for (id, _, layout) in every_run() {
        assert!(
            layout.marks.is_sorted_by_key(|m| (m.at.event, m.at.time)),
            "{id}: marks out of event order"
        );
        assert!(
            layout.marks.is_sorted_by_key(|m| m.at.time),
            "{id}: marks out of time order"
        );
        assert!(
            layout.arrows.is_sorted_by_key(|a| a.sent.event),
            "{id}: arrows out of the order sent"
        );
    }
}
