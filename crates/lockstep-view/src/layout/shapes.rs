//! The shapes a frame is made of — bars, marks, arrows, bands, ticks, labels — and the lane
//! geometry they sit in, in px with the lanes stacked from y = 0. Plain data and the boxes that
//! follow from it: [`super::frame`] fills them, [`super::annotate`] labels them, the timeline
//! draws them. Pure: no DOM.

use super::labels::{CHAR_WIDTH, LABEL_HEIGHT, Rect, text_width};
use super::{MarkKind, SpanKind};
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::world::ids::MessageId;

/// Height of one lane, in px: a row for labels, the bar, another row for labels.
pub const LANE_HEIGHT: f64 = 38.0;
/// Where a lane's upper row of labels starts, below its top.
pub const UPPER_ROW: f64 = 0.0;
/// Where a lease, belief or overhang bar starts, below the lane's top; it is one label high.
pub const BAR_TOP: f64 = 13.0;
/// Where a lane's lower row of labels starts, below its top.
pub const LOWER_ROW: f64 = 26.0;
/// Height of the time axis under the lanes, in px.
pub const AXIS_HEIGHT: f64 = 20.0;
/// How wide the "now" tag under the axis is, in px.
pub const NOW_TAG_WIDTH: f64 = 28.0;
#[derive(Clone, Debug, PartialEq)]
pub struct BarShape {
    pub lane: usize,
    pub kind: SpanKind,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    /// The event that started it.
    pub from_event: usize,
    /// Still going at the current position.
    pub open: bool,
    pub label: LabelState,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MarkShape {
    pub lane: usize,
    pub kind: MarkKind,
    pub x: f64,
    pub y: f64,
    pub event: usize,
    pub label: LabelState,
}

/// Where a message is at the current position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowState {
    InFlight,
    Held,
    Delivered,
    Lost,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ArrowShape {
    pub message: MessageId,
    pub label: &'static str,
    pub state: ArrowState,
    pub x1: f64,
    pub y1: f64,
    pub x2: f64,
    pub y2: f64,
    /// Where a message still on its way is due to arrive (`None` once it arrived or was lost):
    /// the rest of its path is drawn faint, and can be clicked from the moment it is sent.
    pub due: Option<(f64, f64)>,
    pub sent_event: usize,
}

/// Half the width of an arrowhead and its length behind the point, in px: the size the
/// timeline's marker has on a 1.5-px shaft (10 units at 7 × 1.5 / 10 px a unit, its point one
/// unit past the shaft's end).
const HEAD_UNIT: f64 = 1.05;

impl ArrowShape {
    /// The arrowhead at the end of the shaft as a triangle (point, then the two back corners),
    /// for arrows drawn together as one path (delivered ones), where no marker can be used:
    /// a marker on a path of many segments marks only its last one.
    pub fn head(&self) -> [(f64, f64); 3] {
        let (dx, dy) = (self.x2 - self.x1, self.y2 - self.y1);
        let length = dx.hypot(dy);
        let (ux, uy) = if length > 0.0 {
            (dx / length, dy / length)
        } else {
            (1.0, 0.0)
        };
        let at = |along: f64, across: f64| {
            (
                self.x2 + (ux * along - uy * across) * HEAD_UNIT,
                self.y2 + (uy * along + ux * across) * HEAD_UNIT,
            )
        };
        [at(1.0, 0.0), at(-9.0, -5.0), at(-9.0, 5.0)]
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct BandShape {
    pub invariant: Invariant,
    pub x: f64,
    pub width: f64,
    pub from_event: usize,
    /// The lanes that broke it ([`super::Band::lanes`]), where its label goes.
    pub lanes: Vec<usize>,
    /// How many bands of its invariant are in view, counted on the first of them (its label
    /// says "×10" once rather than ten labels); 0 on the others, which carry no label.
    pub repeats: usize,
    /// Still broken at the current position.
    pub open: bool,
    pub label: LabelState,
}

/// A network cut in force, drawn on the lanes at both ends of the link for as long as it lasts
/// (up to now while it is not healed).
#[derive(Clone, Debug, PartialEq)]
pub struct CutShape {
    pub from_lane: usize,
    pub to_lane: usize,
    pub both_ways: bool,
    pub x: f64,
    pub width: f64,
    pub from_event: usize,
    /// Still cut at the current position.
    pub open: bool,
}

/// Where a cut's dashed line runs on a lane: along its bottom edge, under the lower label row,
/// so that it crosses no bar and no label.
pub fn cut_line_y(lane: usize) -> f64 {
    (lane + 1) as f64 * LANE_HEIGHT - 1.5
}

/// The box of the "✂" at a cut's start on `lane`, which no label may cover.
pub fn scissors_box(x: f64, lane: usize) -> Rect {
    Rect {
        x: x - 5.0,
        y: cut_line_y(lane) - 9.0,
        width: 10.0,
        height: 10.0,
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    pub x: f64,
    pub label: String,
    /// Where the label's middle goes: under the tick, or moved in so that it is not cut off at
    /// the edge of the view.
    pub label_x: f64,
}

/// Everything to draw, in px, with the lanes stacked from y = 0.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frame {
    pub width: f64,
    /// How far the drawing is shifted left: a shape at `x` appears at `x - offset`.
    pub offset: f64,
    pub height: f64,
    pub bars: Vec<BarShape>,
    pub marks: Vec<MarkShape>,
    pub arrows: Vec<ArrowShape>,
    pub bands: Vec<BandShape>,
    pub cuts: Vec<CutShape>,
    pub ticks: Vec<Tick>,
    /// The "now" line, when the present is in view.
    pub now_x: Option<f64>,
    /// Where the middle of the "now" tag under the axis goes: under the line, or moved in so
    /// that the tag is not cut off at the edge of the view.
    pub now_tag_x: f64,
    /// The text on and beside the shapes, each placed clear of the others (see
    /// [`super::annotate`]).
    pub labels: Vec<Label>,
    /// Too much was in view to draw one by one: delivered messages are left out, marks that
    /// would sit on top of each other are drawn once (the most telling one: a rejection before
    /// an acceptance), and touching bars of a kind are drawn as one. Zooming in shows all.
    pub simplified: bool,
}

/// The centre line of lane `lane`.
pub fn lane_centre(lane: usize) -> f64 {
    lane as f64 * LANE_HEIGHT + BAR_TOP + LABEL_HEIGHT / 2.0
}

/// Where the lanes' names go: in a column beside the plot, or (on a narrow screen, where the
/// plot takes the whole width) at the top left of each lane, over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneNames {
    Beside,
    Above,
}

/// The longest badge a lane's name carries ("believes it holds"), in characters.
const LONGEST_BADGE: usize = 17;

/// The box a lane's name and badge take at the top left of the lane when names sit above the
/// lanes (`left`: the view's left edge on the absolute axis). Nothing else is placed there.
pub fn lane_name_box(lane: usize, name: &str, left: f64) -> Rect {
    Rect {
        x: left,
        y: lane as f64 * LANE_HEIGHT + UPPER_ROW,
        width: lane_name_width(name),
        height: LABEL_HEIGHT,
    }
}

/// How wide a lane's name and its longest badge are, in the labels' type.
pub fn lane_name_width(name: &str) -> f64 {
    text_width(name) + (LONGEST_BADGE + 1) as f64 * CHAR_WIDTH
}

/// Whether a shape's text is drawn beside it, or only in its tooltip (no free place for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelState {
    /// The shape has no text of its own (a pause, a delivered message).
    Unlabelled,
    Shown,
    HoverOnly,
}

/// The box a mark's glyph covers, which no label may cover.
pub fn glyph_box(mark: &MarkShape) -> Rect {
    let (x, y) = (mark.x, mark.y);
    let (half_width, top, bottom) = match mark.kind {
        MarkKind::Accepted { .. } | MarkKind::Stale { .. } | MarkKind::LostUpdate { .. } => {
            (7.0, y - 7.0, y + 7.0)
        }
        MarkKind::Rejected { .. } | MarkKind::Duplicated => (7.0, y - 7.0, y + 7.0),
        MarkKind::ClockJump { .. } => (6.0, y - 9.0, y + 9.0),
        MarkKind::Intervention => {
            let lane_top = mark.lane as f64 * LANE_HEIGHT;
            (6.0, lane_top + 1.0, lane_top + 10.0)
        }
    };
    Rect {
        x: x - half_width,
        y: top,
        width: 2.0 * half_width,
        height: bottom - top,
    }
}

/// Orders bar kinds for merging; also their drawing order, background first.
pub fn span_rank(kind: SpanKind) -> u8 {
    match kind {
        SpanKind::Pause => 0,
        SpanKind::Crash => 1,
        SpanKind::Lease { .. } | SpanKind::StoredLease { .. } => 2,
        SpanKind::Belief { .. } => 3,
        SpanKind::Overhang => 4,
    }
}
/// What a label belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelOf {
    /// The bar at this index of the frame's bars.
    Bar(usize),
    Mark(usize),
    Band(usize),
}

/// How a label is drawn: a token or a state, or bad news.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Plain,
    Bad,
}

/// A placed label: its text and the box it takes, on the frame's absolute axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub of: LabelOf,
    pub text: String,
    pub bounds: Rect,
    pub tone: Tone,
    /// The lane it belongs to (a band belongs to none).
    pub lane: Option<usize>,
    /// Names the shape it belongs to from frame to frame (its index does not), so that a
    /// label that moves is moved, not drawn anew.
    pub key: String,
}
