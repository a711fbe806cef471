//! Projects a [`Layout`] onto pixels: what is visible after the first `position` events, inside
//! a [`Viewport`] of virtual time. The result is flat lists of shapes the timeline component
//! turns into SVG one to one.
//!
//! Only what falls inside the viewport is emitted, so a 10,000-event run costs what its visible
//! window costs. Pure: no DOM, tested natively.

use super::annotate::annotate;
// The shapes live in `shapes.rs`; a frame is what this module makes of them, so its users find
// them here too.
use super::labels::{CHAR_WIDTH, LABEL_HEIGHT};
pub use super::shapes::{
    AXIS_HEIGHT, ArrowShape, ArrowState, BAR_TOP, BandShape, BarShape, CutShape, Frame,
    LANE_HEIGHT, LOWER_ROW, LabelState, LaneNames, MarkShape, NOW_TAG_WIDTH, Tick, UPPER_ROW,
    cut_line_y, glyph_box, lane_centre, lane_name_box, lane_name_width, scissors_box, span_rank,
};
pub use super::viewport::Viewport;
use super::{Arrow, Band, Cut, Fate, Layout, MarkKind, Moment, SpanKind};

/// Narrowest a bar is drawn, so that a one-millisecond lease is still visible and clickable.
const MIN_BAR: f64 = 2.0;
/// Beyond these many shapes of a kind in view, the frame becomes an overview (see
/// [`Frame::simplified`]): thousands of SVG elements cost a browser far more than a frame, and
/// at that zoom nobody can tell them apart anyway.
pub const MAX_ARROWS: usize = 300;
pub const MAX_MARKS: usize = 400;
pub const MAX_BARS: usize = 600;

/// What is visible after the first `position` events, whose last happened at `now`.
pub fn frame(
    layout: &Layout,
    position: usize,
    now: u64,
    view: Viewport,
    names: LaneNames,
) -> Frame {
    let p = Projection::new(position, now, view);
    let mut frame = Frame {
        width: view.width,
        offset: p.offset,
        height: layout.lanes.len() as f64 * LANE_HEIGHT + AXIS_HEIGHT,
        ..Frame::default()
    };
    frame.bars = bars(layout, &p);
    frame.marks = marks(layout, &p);
    // Arrows come in the order their messages were sent: those sent later are not shown.
    frame.arrows = layout.arrows[..layout.arrows.partition_point(|a| p.shown(a.sent))]
        .iter()
        .filter_map(|arrow| arrow_shape(arrow, &p))
        .collect();
    for band in layout.bands.iter().filter(|b| p.shown(b.from)) {
        frame.bands.extend(band_shape(
            band,
            p.end_of(band.to),
            now,
            |t| p.ax(t),
            |x0, x1| p.visible(x0, x1),
        ));
    }
    count_repeats(&mut frame.bands);
    frame.cuts = layout
        .cuts
        .iter()
        .filter(|c| p.shown(c.from))
        .filter_map(|cut| cut_shape(cut, &p))
        .collect();
    simplify(&mut frame);
    frame.ticks = ticks(view, |t| p.ax(t));
    place_now(&mut frame, &p);
    frame.labels = annotate(&mut frame, layout, names);
    frame
}

/// Where the first `position` events put things on screen.
///
/// Shapes are placed on an absolute axis (x = time × scale) and the whole drawing is shifted
/// by `offset`: panning — which "follow now" does on every step — then changes one transform,
/// not every shape's coordinates.
struct Projection {
    position: usize,
    now: u64,
    scale: f64,
    offset: f64,
    width: f64,
}

impl Projection {
    fn new(position: usize, now: u64, view: Viewport) -> Projection {
        let scale = view.width / view.span;
        Projection {
            position,
            now,
            scale,
            offset: view.start * scale,
            width: view.width,
        }
    }

    fn shown(&self, m: Moment) -> bool {
        m.event < self.position
    }

    /// Something that ends at an event not shown yet is still going now.
    fn end_of(&self, to: Option<Moment>) -> Option<u64> {
        to.filter(|m| self.shown(*m)).map(|m| m.time)
    }

    fn ax(&self, time: u64) -> f64 {
        time as f64 * self.scale
    }

    fn visible(&self, x0: f64, x1: f64) -> bool {
        x1 - self.offset >= 0.0 && x0 - self.offset <= self.width
    }
}

fn bars(layout: &Layout, p: &Projection) -> Vec<BarShape> {
    let mut bars = Vec::new();
    for span in layout.spans.iter().filter(|s| p.shown(s.from)) {
        let end = p.end_of(span.to);
        let x0 = p.ax(span.from.time);
        let x1 = p.ax(end.unwrap_or(p.now)).max(x0 + MIN_BAR);
        if !p.visible(x0, x1) {
            continue;
        }
        let top = span.lane as f64 * LANE_HEIGHT;
        let (y, height) = match span.kind {
            SpanKind::Pause | SpanKind::Crash => (top + 1.0, LANE_HEIGHT - 2.0),
            SpanKind::Lease { .. }
            | SpanKind::StoredLease { .. }
            | SpanKind::Belief { .. }
            | SpanKind::Overhang => (top + BAR_TOP, LABEL_HEIGHT),
        };
        bars.push(BarShape {
            lane: span.lane,
            kind: span.kind,
            x: x0,
            y,
            width: x1 - x0,
            height,
            from_event: span.from.event,
            open: end.is_none(),
            label: LabelState::Unlabelled,
        });
    }
    bars
}

fn marks(layout: &Layout, p: &Projection) -> Vec<MarkShape> {
    // Marks come in event order, so the shown ones in view are one slice of them.
    let marks_shown = &layout.marks[..layout.marks.partition_point(|m| p.shown(m.at))];
    let first_in_view = marks_shown.partition_point(|m| p.ax(m.at.time) < p.offset);
    marks_shown[first_in_view..]
        .iter()
        .map(|mark| (mark, p.ax(mark.at.time)))
        .take_while(|(_, x)| p.visible(*x, *x))
        .map(|(mark, x)| MarkShape {
            lane: mark.lane,
            kind: mark.kind,
            x,
            y: lane_centre(mark.lane),
            event: mark.at.event,
            label: LabelState::Unlabelled,
        })
        .collect()
}

/// A message's arrow as far as it has got, or `None` when it is out of view.
fn arrow_shape(arrow: &Arrow, p: &Projection) -> Option<ArrowShape> {
    let y1 = lane_centre(arrow.from_lane);
    let y_to = lane_centre(arrow.to_lane);
    // A message due the moment it was sent (a recorded request that got no answer) has
    // reached its lane at once.
    let along = |time: u64| {
        if arrow.due <= arrow.sent.time {
            return 1.0;
        }
        let total = (arrow.due - arrow.sent.time) as f64;
        (time.saturating_sub(arrow.sent.time) as f64 / total).min(1.0)
    };
    let held = arrow
        .held
        .filter(|(hold, release)| p.shown(*hold) && release.is_none_or(|r| !p.shown(r)));
    let ended = arrow.ended.filter(|m| p.shown(*m));
    let (state, until, fraction) = match (ended, held) {
        (Some(end), _) => {
            let state = match arrow.fate {
                Fate::Lost(_) => ArrowState::Lost,
                Fate::Delivered | Fate::Underway => ArrowState::Delivered,
            };
            let fraction = if state == ArrowState::Lost {
                along(end.time)
            } else {
                1.0
            };
            (state, end.time, fraction)
        }
        (None, Some((hold, _))) => (ArrowState::Held, hold.time, along(hold.time)),
        (None, None) => (ArrowState::InFlight, p.now, along(p.now)),
    };
    let x1 = p.ax(arrow.sent.time);
    let x2 = p.ax(until);
    let x_far = if ended.is_none() {
        p.ax(arrow.due).max(x2)
    } else {
        x2
    };
    p.visible(x1.min(x2), x1.max(x_far)).then(|| ArrowShape {
        message: arrow.message,
        label: arrow.label,
        state,
        x1,
        y1,
        x2,
        y2: y1 + (y_to - y1) * fraction,
        due: matches!(state, ArrowState::InFlight | ArrowState::Held)
            .then(|| (p.ax(arrow.due), y_to)),
        sent_event: arrow.sent.event,
    })
}

/// The "now" line and its tag. The tag says where the present is; an axis label under it
/// would be unreadable, so it goes (the grid line stays).
fn place_now(frame: &mut Frame, p: &Projection) {
    let now_x = p.ax(p.now);
    frame.now_x = p.visible(now_x, now_x).then_some(now_x);
    let half = NOW_TAG_WIDTH / 2.0;
    frame.now_tag_x = now_x.clamp(
        p.offset + half,
        (p.offset + p.width - half).max(p.offset + half),
    );
    if frame.now_x.is_some() {
        for tick in &mut frame.ticks {
            let label_half = tick.label.chars().count() as f64 * CHAR_WIDTH / 2.0;
            if (tick.label_x - frame.now_tag_x).abs() < label_half + half {
                tick.label.clear();
            }
        }
    }
}

fn band_shape(
    band: &Band,
    end: Option<u64>,
    now: u64,
    ax: impl Fn(u64) -> f64,
    visible: impl Fn(f64, f64) -> bool,
) -> Option<BandShape> {
    let x0 = ax(band.from.time);
    // A history invariant stays broken: it is marked where it broke, not washed over the rest.
    let x1 = if band.invariant.is_history() {
        x0 + MIN_BAR * 2.0
    } else {
        ax(end.unwrap_or(now)).max(x0 + MIN_BAR * 2.0)
    };
    visible(x0, x1).then_some(BandShape {
        invariant: band.invariant,
        x: x0,
        width: x1 - x0,
        from_event: band.from.event,
        lanes: band.lanes.clone(),
        repeats: 1,
        open: end.is_none(),
        label: LabelState::Unlabelled,
    })
}

/// The first band of each invariant in view counts them all; the others carry no label of
/// their own (a chaos run breaks one belief ten times: one label says "×10").
fn count_repeats(bands: &mut [BandShape]) {
    for index in 0..bands.len() {
        let invariant = bands[index].invariant;
        if bands[..index].iter().any(|b| b.invariant == invariant) {
            bands[index].repeats = 0;
            continue;
        }
        bands[index].repeats = bands[index..]
            .iter()
            .filter(|b| b.invariant == invariant)
            .count();
    }
}

/// A cut's shape from where it began until it was healed (or until now), when in view.
fn cut_shape(cut: &Cut, p: &Projection) -> Option<CutShape> {
    let end = p.end_of(cut.to);
    let x0 = p.ax(cut.from.time);
    let x1 = p.ax(end.unwrap_or(p.now)).max(x0 + MIN_BAR);
    p.visible(x0, x1).then_some(CutShape {
        from_lane: cut.from_lane,
        to_lane: cut.to_lane,
        both_ways: cut.both_ways,
        x: x0,
        width: x1 - x0,
        from_event: cut.from.event,
        open: end.is_none(),
    })
}

/// Thins a frame with too much in view (see [`Frame::simplified`]).
fn simplify(frame: &mut Frame) {
    if frame.arrows.len() > MAX_ARROWS {
        frame.arrows.retain(|a| a.state != ArrowState::Delivered);
        frame.arrows.truncate(MAX_ARROWS);
        frame.simplified = true;
    }
    if frame.marks.len() > MAX_MARKS {
        // One mark per lane and 4-px column: the most telling of those that fall there.
        let column = |m: &MarkShape| (m.lane, (m.x / 4.0).floor() as i64);
        frame.marks.sort_by(|a, b| {
            column(a)
                .cmp(&column(b))
                .then(importance(b.kind).cmp(&importance(a.kind)))
                .then(a.event.cmp(&b.event))
        });
        frame
            .marks
            .dedup_by(|later, kept| column(later) == column(kept));
        frame.marks.sort_by_key(|m| m.event);
        frame.simplified = true;
    }
    if frame.bars.len() > MAX_BARS {
        // Bars of one kind on one lane that touch (within a pixel) become one.
        let kind = |b: &BarShape| std::mem::discriminant(&b.kind);
        let mut order: Vec<usize> = (0..frame.bars.len()).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&frame.bars[a], &frame.bars[b]);
            (a.lane, span_rank(a.kind), a.x.to_bits()).cmp(&(
                b.lane,
                span_rank(b.kind),
                b.x.to_bits(),
            ))
        });
        let mut merged: Vec<BarShape> = Vec::new();
        for index in order {
            let bar = frame.bars[index].clone();
            match merged.last_mut() {
                Some(last)
                    if last.lane == bar.lane
                        && kind(last) == kind(&bar)
                        && bar.x <= last.x + last.width + 1.0 =>
                {
                    last.width = last.width.max(bar.x + bar.width - last.x);
                    last.open |= bar.open;
                }
                _ => merged.push(bar),
            }
        }
        frame.bars = merged;
        frame.simplified = true;
    }
}

/// Which mark to keep where several fall on one spot: what went wrong first.
fn importance(kind: MarkKind) -> u8 {
    match kind {
        MarkKind::Stale { .. } | MarkKind::LostUpdate { .. } => 5,
        MarkKind::Rejected { .. } | MarkKind::Duplicated => 4,
        MarkKind::Intervention => 3,
        MarkKind::ClockJump { .. } => 2,
        MarkKind::Accepted { .. } => 1,
    }
}

/// Round-numbered ticks about every 100 px.
fn ticks(view: Viewport, ax: impl Fn(u64) -> f64) -> Vec<Tick> {
    let wanted = (view.width / 100.0).max(1.0);
    let raw = view.span / wanted;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(magnitude * 10.0)
        .max(1.0);
    let first = (view.start / step).ceil() * step;
    let mut ticks = Vec::new();
    let mut t = first;
    let (left, right) = (ax_f(view.start, &view), ax_f(view.start + view.span, &view));
    while t <= view.start + view.span && ticks.len() < 64 {
        let x = ax(t as u64);
        let label = time_label(t as u64);
        let half = label.chars().count() as f64 * CHAR_WIDTH / 2.0;
        ticks.push(Tick {
            x,
            label_x: x.clamp(left + half, (right - half).max(left + half)),
            label,
        });
        t += step;
    }
    ticks
}

/// `time` on the absolute axis the shapes sit on.
fn ax_f(time: f64, view: &Viewport) -> f64 {
    time * view.width / view.span
}

/// "850 ms", "1.2 s", "3 s".
pub fn time_label(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        let text = format!("{:.3}", ms as f64 / 1000.0);
        format!("{} s", text.trim_end_matches('0'))
    }
}
