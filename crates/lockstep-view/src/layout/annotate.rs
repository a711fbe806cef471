//! Which text each shape of a frame carries, and where it may go: a lease or belief bar its
//! token, a crash the word, a write its token or why it was refused, a clock jump by how much,
//! a broken invariant its statement or a short form (once per invariant in view, counted:
//! "×10"), only on the lanes that broke it; a stale write "stale 33", a lost update its words.
//! Asks [`labels::place`] for boxes clear of each other, of the hatching (overhangs, pauses),
//! of the marks' glyphs, of the lane names (on a narrow screen) and of the view's edges, a
//! little inside them; a shape whose text finds no place keeps it for its tooltip
//! ([`LabelState::HoverOnly`]).
//!
//! Runs on every frame, after the frame is simplified: its cost grows with the shapes in view
//! (at most [`MAX_LABELS`] labels are tried). Pure: knows nothing of the DOM.

use super::labels::{self, LABEL_HEIGHT, Rect, Request, label_box, text_width};
use super::shapes::{
    BandShape, BarShape, Frame, LANE_HEIGHT, LOWER_ROW, Label, LabelOf, LabelState, LaneNames,
    MarkShape, Tone, UPPER_ROW, glyph_box, lane_name_box, scissors_box, span_rank,
};
use super::{Layout, MarkKind, SpanKind, refusal_text};
use lockstep_sim::vocabulary::invariant::{Concern, Invariant};

/// At most this many labels are placed in one frame; the rest are tooltips only. A wider view
/// holds more shapes than anyone can read labels on.
pub const MAX_LABELS: usize = 150;
/// How many places along a bar a label inside it (or above or below it) is tried at.
const SLIDES: usize = 6;
/// Room between a glyph and its label, in px.
const GAP: f64 = 2.0;
/// Room between a label and the plot's left or right edge, in px: a label's outline is drawn
/// half outside its box.
pub const EDGE_INSET: f64 = 2.0;

/// One shape's label, before placement: which, and how urgent. Its candidate boxes are only
/// listed for the first [`MAX_LABELS`] in rank order.
struct Wanted {
    of: LabelOf,
    /// Lower goes first.
    rank: u8,
    x: f64,
    tone: Tone,
    lane: Option<usize>,
}

/// Places the labels of `frame`'s shapes and records on each shape whether its text is shown.
pub fn annotate(frame: &mut Frame, layout: &Layout, names: LaneNames) -> Vec<Label> {
    let area = label_area(frame, layout);
    let view = (area.x, area.right());
    let obstacles = obstacles(frame, layout, names);
    let wanted = wanted(frame);
    let tried = wanted.len().min(MAX_LABELS);
    let requests: Vec<Request> = wanted[..tried]
        .iter()
        .map(|w| match w.of {
            LabelOf::Band(i) => band_request(&frame.bands[i], view),
            LabelOf::Mark(i) => mark_request(&frame.marks[i]),
            LabelOf::Bar(i) => bar_request(&frame.bars[i], layout, view),
        })
        .collect();
    let placed = labels::place(area, &obstacles, &requests);
    let mut labels = Vec::new();
    for (index, want) in wanted.iter().enumerate() {
        let placement = placed.get(index).cloned().flatten();
        let state = if placement.is_some() {
            LabelState::Shown
        } else {
            LabelState::HoverOnly
        };
        match want.of {
            LabelOf::Bar(i) => frame.bars[i].label = state,
            LabelOf::Mark(i) => frame.marks[i].label = state,
            LabelOf::Band(i) => frame.bands[i].label = state,
        }
        if let Some(placement) = placement {
            labels.push(Label {
                of: want.of,
                text: placement.text,
                bounds: placement.bounds,
                tone: want.tone,
                lane: want.lane,
                key: key(frame, want.of),
            });
        }
    }
    labels
}

/// Where labels may go: the lanes in view, kept [`EDGE_INSET`] px in from the plot's left and
/// right edges, so that no label's ground or outline is cut by them.
pub fn label_area(frame: &Frame, layout: &Layout) -> Rect {
    Rect {
        x: frame.offset + EDGE_INSET,
        y: 0.0,
        width: (frame.width - 2.0 * EDGE_INSET).max(0.0),
        height: layout.lanes.len() as f64 * LANE_HEIGHT,
    }
}

/// What a label must keep clear of: the hatching, the marks' glyphs, and the lane names when
/// they sit above the lanes.
fn obstacles(frame: &Frame, layout: &Layout, names: LaneNames) -> Vec<Rect> {
    let mut obstacles: Vec<Rect> = frame
        .bars
        .iter()
        .filter(|b| matches!(b.kind, SpanKind::Overhang | SpanKind::Pause))
        .map(bar_rect)
        .collect();
    obstacles.extend(frame.marks.iter().map(glyph_box));
    obstacles.extend(
        frame
            .cuts
            .iter()
            .flat_map(|cut| [cut.from_lane, cut.to_lane].map(|lane| scissors_box(cut.x, lane))),
    );
    if names == LaneNames::Above {
        obstacles.extend(
            layout
                .lanes
                .iter()
                .enumerate()
                .map(|(index, lane)| lane_name_box(index, &lane.name, frame.offset)),
        );
    }
    obstacles
}

/// Every shape that wants a label, most urgent first (then from left to right).
fn wanted(frame: &Frame) -> Vec<Wanted> {
    let mut wanted: Vec<Wanted> = Vec::new();
    // A band counted on an earlier one of its invariant carries no label of its own.
    wanted.extend(
        frame
            .bands
            .iter()
            .enumerate()
            .filter(|(_, band)| band.repeats > 0)
            .map(|(index, band)| Wanted {
                of: LabelOf::Band(index),
                rank: 0,
                x: band.x,
                tone: band_tone(band),
                lane: band.lanes.first().copied(),
            }),
    );
    wanted.extend(frame.marks.iter().enumerate().filter_map(|(index, mark)| {
        let (rank, tone) = mark_rank(mark)?;
        Some(Wanted {
            of: LabelOf::Mark(index),
            rank,
            x: mark.x,
            tone,
            lane: Some(mark.lane),
        })
    }));
    wanted.extend(frame.bars.iter().enumerate().filter_map(|(index, bar)| {
        let rank = bar_rank(bar)?;
        Some(Wanted {
            of: LabelOf::Bar(index),
            rank,
            x: bar.x,
            tone: Tone::Plain,
            lane: Some(bar.lane),
        })
    }));
    wanted.sort_by(|a, b| a.rank.cmp(&b.rank).then(a.x.total_cmp(&b.x)));
    wanted
}

/// A label's key, stable while its shape stays: the view keys its elements with it.
fn key(frame: &Frame, of: LabelOf) -> String {
    match of {
        LabelOf::Bar(i) => {
            let bar = &frame.bars[i];
            format!(
                "bar-{}-{}-{}",
                bar.lane,
                span_rank(bar.kind),
                bar.from_event
            )
        }
        LabelOf::Mark(i) => {
            let mark = &frame.marks[i];
            format!("mark-{}-{}", mark.lane, mark.event)
        }
        LabelOf::Band(i) => {
            let band = &frame.bands[i];
            format!("band-{}-{}", band.from_event, band.invariant.id())
        }
    }
}

fn bar_rect(bar: &BarShape) -> Rect {
    Rect {
        x: bar.x,
        y: bar.y,
        width: bar.width,
        height: bar.height,
    }
}

/// The texts a bar may show, longest first.
fn bar_texts(bar: &BarShape, layout: &Layout) -> Vec<String> {
    let name = |node| layout.name_of(node);
    match bar.kind {
        SpanKind::Lease {
            holder,
            token: Some(token),
        } => vec![
            format!("token {} · {}", token.0, name(holder)),
            format!("{} · {}", token.0, name(holder)),
            token.0.to_string(),
        ],
        SpanKind::Lease {
            holder,
            token: None,
        } => vec![name(holder).to_owned()],
        SpanKind::StoredLease { holder, token } => vec![
            format!(
                "token {} · {} · no leader serving it",
                token.0,
                name(holder)
            ),
            format!("{} · {} · no leader", token.0, name(holder)),
            format!("{} · no leader", token.0),
            token.0.to_string(),
        ],
        SpanKind::Belief { token: Some(token) } => vec![
            format!("believes: token {}", token.0),
            format!("believes {}", token.0),
            token.0.to_string(),
        ],
        SpanKind::Belief { token: None } => {
            vec!["believes it holds".to_owned(), "believes".to_owned()]
        }
        SpanKind::Crash => vec!["✕ crashed".to_owned(), "✕".to_owned()],
        SpanKind::Overhang | SpanKind::Pause => Vec::new(),
    }
}

/// Left edges for a box of `width` spread over `from..to`, the first at `from`.
fn slides(from: f64, to: f64, width: f64) -> impl Iterator<Item = f64> {
    let room = (to - from - width).max(0.0);
    let count = if room > 0.0 { SLIDES } else { 1 };
    (0..count).map(move |i| from + room * i as f64 / (SLIDES - 1) as f64)
}

/// How urgent a bar's label is; `None` for a bar that carries no text.
fn bar_rank(bar: &BarShape) -> Option<u8> {
    match bar.kind {
        SpanKind::Crash => Some(3),
        SpanKind::Belief { .. } => Some(5),
        SpanKind::Lease { .. } | SpanKind::StoredLease { .. } => Some(6),
        SpanKind::Overhang | SpanKind::Pause => None,
    }
}

/// Inside the bar (a lease, belief or crash), then in the rows above and below it, each text
/// from the longest, at a few places along the part of the bar in view.
fn bar_request(bar: &BarShape, layout: &Layout, view: (f64, f64)) -> Request {
    let texts = bar_texts(bar, layout);
    let (from, to) = (bar.x.max(view.0), (bar.x + bar.width).min(view.1));
    let top = bar.lane as f64 * LANE_HEIGHT;
    let inside = match bar.kind {
        SpanKind::Crash => top + LANE_HEIGHT / 2.0 - LABEL_HEIGHT / 2.0,
        _ => bar.y,
    };
    let mut candidates = Vec::new();
    if to > from {
        for (index, text) in texts.iter().enumerate() {
            let width = text_width(text);
            let at = |x: f64, y: f64| {
                (
                    index,
                    Rect {
                        x,
                        y,
                        width,
                        height: LABEL_HEIGHT,
                    },
                )
            };
            if width + 2.0 <= to - from {
                candidates.extend(slides(from + 1.0, to - 1.0, width).map(|x| at(x, inside)));
            }
            for row in [UPPER_ROW, LOWER_ROW] {
                candidates
                    .extend(slides(from, to.max(from + width), width).map(|x| at(x, top + row)));
            }
        }
    }
    Request { texts, candidates }
}

/// A clock jump's text: "+15000 ms".
pub fn jump_text(by_ms: i64) -> String {
    format!(
        "{}{} ms",
        if by_ms >= 0 { "+" } else { "−" },
        by_ms.unsigned_abs()
    )
}

/// How urgent a mark's label is, and its tone; `None` for a mark that carries no text.
fn mark_rank(mark: &MarkShape) -> Option<(u8, Tone)> {
    match mark.kind {
        MarkKind::Stale { .. } | MarkKind::LostUpdate { .. } | MarkKind::Rejected { .. } => {
            Some((1, Tone::Bad))
        }
        MarkKind::ClockJump { .. } => Some((2, Tone::Plain)),
        MarkKind::Accepted { token: Some(_) } => Some((4, Tone::Plain)),
        MarkKind::Accepted { token: None } | MarkKind::Duplicated | MarkKind::Intervention => None,
    }
}

/// Beside the glyph: right of it in the upper row, the lower row, the middle; then left of it.
fn mark_request(mark: &MarkShape) -> Request {
    let text = match mark.kind {
        MarkKind::Rejected {
            refusal: Some(refusal),
        } => refusal_text(refusal),
        MarkKind::Rejected { refusal: None } => "refused".to_owned(),
        MarkKind::Stale { token } => format!("stale {}", token.0),
        MarkKind::LostUpdate { .. } => "lost update".to_owned(),
        MarkKind::ClockJump { by_ms } => jump_text(by_ms),
        MarkKind::Accepted { token: Some(token) } => token.0.to_string(),
        MarkKind::Accepted { token: None } | MarkKind::Duplicated | MarkKind::Intervention => {
            return Request::default();
        }
    };
    let glyph = glyph_box(mark);
    let top = mark.lane as f64 * LANE_HEIGHT;
    let width = text_width(&text);
    let right = glyph.right() + GAP;
    let left = glyph.x - GAP - width;
    let middle = mark.y - LABEL_HEIGHT / 2.0;
    let candidates = [
        (right, top + UPPER_ROW),
        (right, top + LOWER_ROW),
        (right, middle),
        (left, top + UPPER_ROW),
        (left, top + LOWER_ROW),
        (left, middle),
    ]
    .into_iter()
    .map(|(x, y)| (0, label_box(&text, x, y)))
    .collect();
    Request {
        texts: vec![text],
        candidates,
    }
}

/// A band's text: "✗ At most one client believes it holds the lock", and "×10" after it when
/// it stands for ten bands of its invariant in view.
pub fn band_text(band: &BandShape) -> String {
    if band.repeats > 1 {
        format!("✗ {} ×{}", band.invariant.statement(), band.repeats)
    } else {
        format!("✗ {}", band.invariant.statement())
    }
}

/// A broken promise of the lock is calm (leases let beliefs overlap); broken data is bad news.
pub fn band_tone(band: &BandShape) -> Tone {
    match band.invariant.concern() {
        Concern::Lock => Tone::Plain,
        Concern::Data => Tone::Bad,
    }
}

/// A band's short text, where the statement does not fit: "✗ stale write" (its tooltip keeps the
/// whole statement).
fn band_short_text(band: &BandShape) -> String {
    let short = match band.invariant {
        Invariant::OneBeliever => "two believe they hold it",
        Invariant::OneLease => "two leases",
        Invariant::TokensIncrease => "token not higher",
        Invariant::NoStaleWrite => "stale write",
        Invariant::OneWriterPerToken => "two writers, one token",
        Invariant::NoLostUpdate => "lost update",
        Invariant::NoDoubleCharge => "charged twice",
    };
    if band.repeats > 1 {
        format!("✗ {short} ×{}", band.repeats)
    } else {
        format!("✗ {short}")
    }
}

/// In the label rows of the lanes that broke it, and nowhere else: a label on another lane
/// would say that lane broke it. The whole statement first, then the short text; each starting
/// at the band (moved in to stay inside the view), then ending at it. Where none is free, the
/// band keeps its text for hover and focus.
fn band_request(band: &BandShape, view: (f64, f64)) -> Request {
    let texts = vec![band_text(band), band_short_text(band)];
    let mut candidates = Vec::new();
    for (index, text) in texts.iter().enumerate() {
        let width = text_width(text);
        let inside = |x: f64| x.min(view.1 - width).max(view.0);
        let xs = [inside(band.x + GAP), inside(band.x - GAP - width)];
        for &lane in &band.lanes {
            let top = lane as f64 * LANE_HEIGHT;
            for y in [top + UPPER_ROW, top + LOWER_ROW] {
                candidates.extend(xs.iter().map(|&x| (index, label_box(text, x, y))));
            }
        }
    }
    Request { texts, candidates }
}
