//! The timeline: one lane per client, lock service node and resource, drawn as SVG from the
//! pure [`frame`] of the playground's layout. Leases (truth) and beliefs, pauses, crashes,
//! messages, writes and broken invariants, each labelled where the layout found room (see
//! `layout::annotate`), and the legend under it; zoom, pan and "follow the present".
//!
//! The viewport is this component's own view state (it changes nothing in the run); everything
//! the user does to the run — selecting a lane or a message, opening an event — is dispatched to
//! the reducer. Geometry is never computed here: only the frame's shapes are turned into tags.
//!
//! The view state lives in `view.rs`, the view's toolbar in `view_toolbar.rs`, the wheel and
//! drag in `gestures.rs`.

mod cuts;
mod gestures;
mod view;
mod view_toolbar;

use crate::components::Shared;
use crate::components::legend::Legend;
use crate::components::timeline_shapes::{glyph, patterns, pause_sign};
use crate::state::{Action, Selection};
use cuts::Cuts;
use gestures::{Gestures, use_gestures};
use lockstep_sim::engine::sim::Sim;
use lockstep_sim::vocabulary::invariant::Concern;
use lockstep_sim::world::ids::NodeId;
use lockstep_view::layout::annotate::band_text;
use lockstep_view::layout::frame::{
    AXIS_HEIGHT, ArrowShape, ArrowState, BandShape, BarShape, Frame, LANE_HEIGHT, LabelState,
    LaneNames, MarkShape, NOW_TAG_WIDTH, Tick, frame, lane_name_width, span_rank,
};
use lockstep_view::layout::labels::{CHAR_WIDTH, text_baseline, text_x};
use lockstep_view::layout::shapes::{Label, LabelOf, Tone};
use lockstep_view::layout::{LaneRole, Layout, MarkKind, SpanKind};
use lockstep_view::svg_number::px;
use lockstep_view::words::{bar_words, lane_badge, mark_kind, mark_words};
pub use view::{AxisRole, FirstWidth, FollowLead, SharedTimeAxis};
use view::{use_plot_size, use_time_axis, use_view_state};
use view_toolbar::view_toolbar;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub layout: Shared<Layout>,
    /// The simulation at the shown position, for lane badges; none for a recorded history,
    /// whose nodes' state the recording does not know.
    #[prop_or_default]
    pub sim: Option<Shared<Sim>>,
    pub position: usize,
    pub now: u64,
    pub selection: Selection,
    pub dispatch: Callback<Action>,
    /// Names this timeline for tests and screen readers ("main", "twin").
    pub name: AttrValue,
    pub caption: AttrValue,
    /// What the view belongs to (the scenario): a new one opens with a fresh view; a new run of
    /// the same one (after an intervention) keeps the user's zoom.
    pub scope: AttrValue,
    /// Whether it shares its time axis with the other timeline of a comparison.
    #[prop_or_default]
    pub axis: AxisRole,
}

#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let plot = use_node_ref();
    let (width, names) = use_plot_size(&plot);
    let end = props.layout.end;
    let view = use_view_state(&props.layout, &props.scope, width);
    let shown_view = use_time_axis(props.axis, view.shown(width, props.now, end));
    let frame = frame(&props.layout, props.position, props.now, shown_view, names);
    let Gestures {
        onwheel,
        onpointerdown,
        onpointermove,
        onpointerup,
    } = use_gestures(&view, shown_view, end);
    let lanes_height = props.layout.lanes.len() as f64 * LANE_HEIGHT;
    // The legend sits outside the section, so that "the timeline's SVG" stays one element.
    html! {
        <div class="timeline-frame">
        <section class={classes!("timeline", (props.axis == AxisRole::Follow).then_some("follows-lead"))}
            data-testid={format!("timeline-{}", props.name)} aria-label={props.caption.clone()}>
            { view_toolbar(&props.caption, &view, shown_view, end, frame.simplified) }
            <div class="timeline-body">
                <ul class="lane-labels" style={format!("height: {lanes_height}px")}>
                    { for props.layout.lanes.iter().map(|lane| html! {
                        <LaneLabel key={lane.node.0} name={lane.name.clone()} node={lane.node} role={lane.role}
                            badge={props.sim.as_ref().map_or("", |sim| lane_badge(sim, lane.node))} {names}
                            selected={props.selection == Selection::Node(lane.node)} dispatch={props.dispatch.clone()} />
                    }) }
                </ul>
                <div class="timeline-plot" ref={plot} {onwheel} {onpointerdown} {onpointermove}
                    onpointerup={onpointerup.clone()} onpointerleave={onpointerup}>
                    { svg(frame, props) }
                </div>
            </div>
        </section>
        <Legend layout={props.layout.clone()} name={props.name.clone()} compact={names == LaneNames::Above} />
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct LaneLabelProps {
    name: String,
    node: NodeId,
    role: LaneRole,
    /// What the lane's node is doing now (`words::lane_badge`).
    badge: &'static str,
    names: LaneNames,
    selected: bool,
    dispatch: Callback<Action>,
}

/// One lane's name and badge, a button that selects the lane's node. A component of its own: a
/// step changes one badge or none, and the other labels are compared, not drawn again.
#[component]
fn LaneLabel(props: &LaneLabelProps) -> Html {
    let (node, selected, names) = (props.node, props.selected, props.names);
    let dispatch = props.dispatch.clone();
    let onclick = Callback::from(move |_: MouseEvent| {
        dispatch.emit(Action::Select(if selected {
            Selection::Nothing
        } else {
            Selection::Node(node)
        }))
    });
    let badge = props.badge;
    let role = match props.role {
        LaneRole::Client => "client",
        LaneRole::Service => "service",
        LaneRole::Resource => "resource",
    };
    // Above the lane, the name takes exactly the room the labels leave it (the layout keeps
    // that box free).
    let width = (names == LaneNames::Above)
        .then(|| format!("max-width: {}px", lane_name_width(&props.name)));
    html! {
        <li class={classes!("lane-label", role)} style={format!("height: {LANE_HEIGHT}px")}>
            <button type="button" data-testid="lane-label" data-node={props.name.clone()} style={width}
                aria-pressed={selected.to_string()} {onclick} title="Select to act on it">
                <span class="lane-name">{ props.name.clone() }</span>
                <span class="visually-hidden">{ ", " }</span>
                <span class={classes!("badge", format!("badge-{}", badge.replace(' ', "-")))}>{ badge }</span>
            </button>
        </li>
    }
}

/// What every shape needs besides its own geometry: lane names, the timeline's name (for its
/// patterns), the selection and where to send actions. Equal from step to step, so a layer
/// whose shapes did not change is not rendered again.
#[derive(Clone, PartialEq)]
struct Ctx {
    layout: Shared<Layout>,
    name: AttrValue,
    selection: Selection,
    dispatch: Callback<Action>,
}

fn svg(frame: Frame, props: &TimelineProps) -> Html {
    let lanes_height = frame.height - AXIS_HEIGHT;
    let name = &props.name;
    let ctx = Ctx {
        layout: props.layout.clone(),
        name: props.name.clone(),
        selection: props.selection,
        dispatch: props.dispatch.clone(),
    };
    html! {
        <svg class="timeline-svg" width={px(frame.width)} height={px(frame.height)}
            viewBox={format!("0 0 {} {}", px(frame.width), px(frame.height))}
            role="group" aria-label={format!("{}: lanes over virtual time", props.caption)}>
            <Lanes layout={props.layout.clone()} name={name.clone()} width={px(frame.width)} />
            // Each keyed list in an element of its own: Yew diffs a list by key only when all of
            // its siblings are keyed, and moves what it can instead of rebuilding it. Each layer
            // is a component of its own: shapes sit on an absolute axis, so while "follow now"
            // pans, only the layers whose shapes changed (an open bar, a message in flight) are
            // rendered again.
            <g transform={format!("translate({},0)", px(-frame.offset))}>
                <Ticks ticks={frame.ticks} {lanes_height} />
                <Bands ctx={ctx.clone()} bands={frame.bands.clone()} {lanes_height} />
                <Cuts cuts={frame.cuts} layout={props.layout.clone()} />
                <Bars ctx={ctx.clone()} bars={frame.bars} />
                <Arrows ctx={ctx.clone()} arrows={frame.arrows} />
                <Marks ctx={ctx.clone()} marks={frame.marks} />
                if let Some(x) = frame.now_x {
                    <g class="now" data-testid="now-line">
                        <line x1={px(x)} x2={px(x)} y1="0" y2={px(lanes_height)} />
                        <rect class="now-tag" x={px(frame.now_tag_x - NOW_TAG_WIDTH / 2.0)} y={px(lanes_height + 2.0)}
                            width={px(NOW_TAG_WIDTH)} height="16" rx="3" />
                        <text x={px(frame.now_tag_x)} y={px(lanes_height + 14.0)} text-anchor="middle" class="now-label">{ "now" }</text>
                    </g>
                }
                // Labels last, on a ground of their own, so that no bar or arrow crosses them.
                <Labels labels={frame.labels} />
            </g>
        </svg>
    }
}

#[derive(Properties, PartialEq)]
struct LanesProps {
    layout: Shared<Layout>,
    name: AttrValue,
    /// The plot's width, as written in the SVG.
    width: String,
}

/// The patterns and the lanes' grounds: the same from step to step, so a step compares them and
/// draws nothing.
#[component]
fn Lanes(props: &LanesProps) -> Html {
    html! {
        <>
            { patterns(&props.name) }
            { for props.layout.lanes.iter().enumerate().map(|(i, lane)| html! {
                <rect class={classes!("lane", (i % 2 == 1).then_some("odd"))} data-testid="lane" data-node={lane.name.clone()}
                    x="0" y={(i as f64 * LANE_HEIGHT).to_string()} width={props.width.clone()} height={LANE_HEIGHT.to_string()} />
            }) }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct TicksProps {
    ticks: Vec<Tick>,
    lanes_height: f64,
}

#[component]
fn Ticks(props: &TicksProps) -> Html {
    let lanes_height = props.lanes_height;
    html! {
        <g class="ticks">
            { for props.ticks.iter().map(|tick| html! {
                // Keyed by place: a tick whose label gives way to the "now" tag has none.
                <g class="tick" key={px(tick.x)}>
                    <line x1={px(tick.x)} x2={px(tick.x)} y1="0" y2={px(lanes_height)} />
                    if !tick.label.is_empty() {
                        <text x={px(tick.label_x)} y={px(lanes_height + 14.0)} text-anchor="middle"
                            textLength={px(tick.label.chars().count() as f64 * CHAR_WIDTH)}>{ tick.label.clone() }</text>
                    }
                </g>
            }) }
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct BandsProps {
    ctx: Ctx,
    bands: Vec<BandShape>,
    lanes_height: f64,
}

#[component]
fn Bands(props: &BandsProps) -> Html {
    html! {
        <g class="bands">
            { for props.bands.iter().map(|band| html! {
                <Band key={format!("{}-{}", band.from_event, band.invariant.id())} band={band.clone()}
                    lanes_height={props.lanes_height} ctx={props.ctx.clone()} />
            }) }
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct LabelsProps {
    labels: Vec<Label>,
}

/// Every label of the frame, each on a ground of the page's colour, where the layout placed it.
/// The text is forced to the width the layout counted on (`textLength`), whatever the font. The
/// grounds are two paths (plain, bad news), not an element each: a scrub may draw a hundred.
#[component]
fn Labels(props: &LabelsProps) -> Html {
    let ground = |tone: Tone| {
        props
            .labels
            .iter()
            .filter(|l| l.tone == tone)
            .map(|l| {
                let b = l.bounds;
                format!(
                    "M{} {}h{}v{}h-{}z",
                    px(b.x),
                    px(b.y),
                    px(b.width),
                    px(b.height),
                    px(b.width)
                )
            })
            .collect::<String>()
    };
    html! {
        <g class="labels" aria-hidden="true">
            // The colours as attributes too, for the exported SVG, which has no stylesheet
            // variables; on the page the stylesheet's (light or dark) win.
            <path class="label-ground" d={ground(Tone::Plain)} fill="#ffffff" fill-opacity="0.92" />
            <path class="label-ground label-ground-bad" d={ground(Tone::Bad)} fill="#fff1e8" stroke="#b84700" />
            { for props.labels.iter().map(|label| html! {
                <LabelText key={label.key.clone()} label={label.clone()} />
            }) }
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct LabelTextProps {
    label: Label,
}

/// One label's text. A component of its own: a step moves a few labels, and the rest are
/// compared, not written again.
#[component]
fn LabelText(props: &LabelTextProps) -> Html {
    let label = &props.label;
    let of = match label.of {
        LabelOf::Bar(_) => "bar",
        LabelOf::Mark(_) => "mark",
        LabelOf::Band(_) => "band",
    };
    let tone = match label.tone {
        Tone::Plain => "plain",
        Tone::Bad => "bad",
    };
    let b = label.bounds;
    html! {
        <text class={classes!("label", format!("label-{tone}"))} data-testid="timeline-label" data-of={of} data-key={label.key.clone()}
            x={px(text_x(&b))} y={px(text_baseline(&b))}
            textLength={px(label.text.chars().count() as f64 * CHAR_WIDTH)}
            lengthAdjust="spacingAndGlyphs">{ label.text.clone() }</text>
    }
}

#[derive(Properties, PartialEq)]
struct BarsProps {
    ctx: Ctx,
    bars: Vec<BarShape>,
}

#[component]
fn Bars(props: &BarsProps) -> Html {
    html! {
        <g class="bars">
            { for props.bars.iter().map(|bar| html! {
                <Bar key={format!("{}-{}-{}", bar.lane, span_rank(bar.kind), bar.from_event)} bar={bar.clone()} ctx={props.ctx.clone()} />
            }) }
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct ArrowsProps {
    ctx: Ctx,
    arrows: Vec<ArrowShape>,
}

#[component]
fn Arrows(props: &ArrowsProps) -> Html {
    let ctx = &props.ctx;
    html! {
        <g class="messages">
            { delivered(&props.arrows) }
            <g class="messages-underway">
                { for props.arrows.iter().filter(|arrow| arrow.state != ArrowState::Delivered).map(|arrow| html! {
                    <Arrow key={arrow.message.0} arrow={arrow.clone()}
                        selected={ctx.selection == Selection::Message(arrow.message)}
                        name={ctx.name.clone()} dispatch={ctx.dispatch.clone()} />
                }) }
            </g>
        </g>
    }
}

/// How many delivered messages, by number, share a pair of paths.
const DELIVERED_BATCH: u32 = 32;

/// The delivered messages, drawn as paths: a pair (shafts, heads) for each batch of
/// [`DELIVERED_BATCH`] consecutive message numbers. A long run shows hundreds, and a scrub would
/// create each anew as an element of its own (and style and lay it out); none can be acted on,
/// so none needs an element, a tooltip or a handler. In batches, because a step delivers one
/// message or none, and only that message's batch (and one leaving the view) is written and
/// painted again. Drawn below the messages still underway (they came earlier in the list).
fn delivered(arrows: &[ArrowShape]) -> Html {
    let mut batches: Vec<(u32, Vec<ArrowShape>)> = Vec::new();
    for arrow in arrows.iter().filter(|a| a.state == ArrowState::Delivered) {
        let batch = arrow.message.0 / DELIVERED_BATCH;
        match batches.last_mut() {
            Some((last, members)) if *last == batch => members.push(arrow.clone()),
            _ => batches.push((batch, vec![arrow.clone()])),
        }
    }
    let count: usize = batches.iter().map(|(_, members)| members.len()).sum();
    html! {
        <g class="message message-delivered" data-testid="delivered-messages" data-count={count.to_string()}>
            { for batches.into_iter().map(|(batch, arrows)| html! { <Delivered key={batch} {arrows} /> }) }
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct DeliveredProps {
    arrows: Vec<ArrowShape>,
}

/// One batch of delivered messages: their shafts in one path, their heads in another.
#[component]
fn Delivered(props: &DeliveredProps) -> Html {
    let mut shafts = String::new();
    let mut heads = String::new();
    for arrow in &props.arrows {
        shafts.push_str(&format!(
            "M{} {}L{} {}",
            px(arrow.x1),
            px(arrow.y1),
            px(arrow.x2),
            px(arrow.y2)
        ));
        let [(x0, y0), (x1, y1), (x2, y2)] = arrow.head();
        heads.push_str(&format!(
            "M{} {}L{} {}L{} {}z",
            px(x0),
            px(y0),
            px(x1),
            px(y1),
            px(x2),
            px(y2)
        ));
    }
    html! {
        <g class="delivered-batch">
            <path class="shaft" d={shafts} />
            <path class="arrow-head" d={heads} />
        </g>
    }
}

/// One message that is in flight, held or lost. A component of its own: a step changes only
/// the few in flight, so the rest are compared, not rendered again.
#[derive(Properties, PartialEq)]
struct ArrowProps {
    arrow: ArrowShape,
    selected: bool,
    name: AttrValue,
    dispatch: Callback<Action>,
}

#[component]
fn Arrow(props: &ArrowProps) -> Html {
    arrow_view(&props.arrow, props.selected, &props.name, &props.dispatch)
}

#[derive(Properties, PartialEq)]
struct MarksProps {
    ctx: Ctx,
    marks: Vec<MarkShape>,
}

#[component]
fn Marks(props: &MarksProps) -> Html {
    html! {
        <g class="marks">
            { for props.marks.iter().map(|mark| html! {
                <Mark key={format!("{}-{}-{}", mark.event, mark.lane, mark_kind(mark.kind))} mark={mark.clone()} ctx={props.ctx.clone()} />
            }) }
        </g>
    }
}

fn lane_name(ctx: &Ctx, lane: usize) -> String {
    ctx.layout
        .lanes
        .get(lane)
        .map_or_else(String::new, |l| l.name.clone())
}

/// Activating an event's mark opens the moment just after it.
fn open_event(ctx: &Ctx, event: usize) -> (Callback<MouseEvent>, Callback<KeyboardEvent>) {
    let dispatch = ctx.dispatch.clone();
    let onclick = Callback::from(move |event_: MouseEvent| {
        event_.stop_propagation();
        dispatch.emit(Action::SeekTo(event + 1))
    });
    let dispatch = ctx.dispatch.clone();
    let onkeydown = Callback::from(move |key: KeyboardEvent| {
        if key.key() == "Enter" || key.key() == " " {
            key.prevent_default();
            key.stop_propagation();
            dispatch.emit(Action::SeekTo(event + 1))
        }
    });
    (onclick, onkeydown)
}

#[derive(Properties, PartialEq)]
struct BarProps {
    bar: BarShape,
    ctx: Ctx,
}

/// One lease, belief, pause or crash. A component of its own, as every shape of the timeline: a
/// step grows an open bar or adds one, and the others are compared, not drawn again.
#[component]
fn Bar(props: &BarProps) -> Html {
    let (bar, ctx) = (&props.bar, &props.ctx);
    let (x, y, w, h) = (bar.x, bar.y, bar.width, bar.height);
    let name = &ctx.name;
    let label = bar_words(bar.kind, &ctx.layout);
    let (class, testid, fill) = match bar.kind {
        SpanKind::Lease { holder, .. } => {
            let hue = ctx.layout.lane_of(holder).unwrap_or(0);
            (format!("bar lease hue-{hue}"), "lease-bar", None)
        }
        SpanKind::StoredLease { holder, .. } => {
            let hue = ctx.layout.lane_of(holder).unwrap_or(0);
            (
                format!("bar lease stored hue-{hue}"),
                "stored-lease-bar",
                None,
            )
        }
        SpanKind::Belief { .. } => (format!("bar belief hue-{}", bar.lane), "belief-bar", None),
        SpanKind::Overhang => (
            "bar overhang".to_owned(),
            "overhang",
            Some(format!("url(#overhang-{name})")),
        ),
        SpanKind::Pause => (
            "bar pause".to_owned(),
            "pause-band",
            Some(format!("url(#hatch-{name})")),
        ),
        SpanKind::Crash => ("bar crash".to_owned(), "crash-band", None),
    };
    let (onclick, onkeydown) = open_event(ctx, bar.from_event);
    // A bar whose text found no place on screen can be reached with the keyboard, and says it
    // (its tooltip shows on hover).
    let hover_only = bar.label == LabelState::HoverOnly;
    let pause_sign = (bar.kind == SpanKind::Pause).then(|| pause_sign(x + 3.0, y + 3.0));
    let token = match bar.kind {
        SpanKind::Lease { token, .. } | SpanKind::Belief { token } => {
            token.map(|t| t.0.to_string())
        }
        SpanKind::StoredLease { token, .. } => Some(token.0.to_string()),
        _ => None,
    };
    html! {
        <g class={class} data-testid={testid} data-event-id={bar.from_event.to_string()}
            data-lane={lane_name(ctx, bar.lane)} data-label={if hover_only { "hover" } else { "shown" }}
            data-token={token} data-open={bar.open.to_string()}
            tabindex={if hover_only { "0" } else { "-1" }}
            role={hover_only.then_some("button")}
            aria-label={hover_only.then(|| format!("{label}: open the moment it began"))}
            {onclick} {onkeydown}>
            <title>{ label }</title>
            <rect x={px(x)} y={px(y)} width={px(w)} height={px(h)} rx="3"
                style={fill.map(|f| format!("fill: {f}"))} />
            { for pause_sign }
        </g>
    }
}

fn arrow_view(
    arrow: &ArrowShape,
    selected: bool,
    name: &AttrValue,
    dispatch: &Callback<Action>,
) -> Html {
    let state = match arrow.state {
        ArrowState::InFlight => "in_flight",
        ArrowState::Held => "held",
        ArrowState::Delivered => "delivered",
        ArrowState::Lost => "lost",
    };
    let actionable = matches!(arrow.state, ArrowState::InFlight | ArrowState::Held);
    let message = arrow.message;
    let dispatch = dispatch.clone();
    let select = move || {
        dispatch.emit(Action::Select(if selected {
            Selection::Nothing
        } else {
            Selection::Message(message)
        }))
    };
    let onclick = {
        let select = select.clone();
        Callback::from(move |event: MouseEvent| {
            event.stop_propagation();
            select()
        })
    };
    let onkeydown = Callback::from(move |key: KeyboardEvent| {
        if key.key() == "Enter" || key.key() == " " {
            key.prevent_default();
            key.stop_propagation();
            select()
        }
    });
    let description = format!(
        "message {}: {}, {}",
        message.0,
        arrow.label,
        state.replace('_', " ")
    );
    let (x1, y1, x2, y2) = (arrow.x1, arrow.y1, arrow.x2, arrow.y2);
    let end_glyph = match arrow.state {
        ArrowState::Lost => Some("✕"),
        ArrowState::Held => Some("⏸"),
        _ => None,
    };
    html! {
        <g class={classes!("message", format!("message-{state}"), selected.then_some("selected"))}
            data-testid="message" data-message-id={message.0.to_string()} data-state={state}
            data-label={arrow.label}
            tabindex={if actionable { "0" } else { "-1" }}
            role={actionable.then_some("button")}
            aria-label={actionable.then(|| format!("{description}: select to hold, release or drop it"))}
            aria-pressed={actionable.then(|| selected.to_string())}
            onclick={actionable.then_some(onclick)} onkeydown={actionable.then_some(onkeydown)}>
            // A tooltip and a wide hit area only where the message can be acted on: a long run
            // draws hundreds of delivered ones, and every node counts when the view moves.
            if actionable {
                <title>{ description }</title>
            }
            if let Some((xd, yd)) = arrow.due {
                <line class="hit" x1={px(x1)} y1={px(y1)} x2={px(xd)} y2={px(yd)} />
                <line class="ahead" x1={px(x2)} y1={px(y2)} x2={px(xd)} y2={px(yd)} />
            }
            <line class="shaft" x1={px(x1)} y1={px(y1)} x2={px(x2)} y2={px(y2)}
                marker-end={(arrow.state == ArrowState::Delivered || arrow.state == ArrowState::InFlight)
                    .then(|| format!("url(#head-{name})"))} />
            if let Some(glyph) = end_glyph {
                <text x={px(x2)} y={px(y2 + 4.0)} text-anchor="middle" class="arrow-glyph">{ glyph }</text>
            }
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct MarkProps {
    mark: MarkShape,
    ctx: Ctx,
}

/// One write's outcome, clock jump or intervention.
#[component]
fn Mark(props: &MarkProps) -> Html {
    let (mark, ctx) = (&props.mark, &props.ctx);
    let (x, y) = (mark.x, mark.y);
    let words = mark_words(mark.kind);
    // The tooltip says what the screen reader says, word for word.
    let label = format!("{words}: open the moment after it");
    let (outcome, token) = match mark.kind {
        MarkKind::Accepted { token } => ("accepted", token.map(|t| t.0.to_string())),
        MarkKind::Rejected { refusal } => (
            "rejected",
            match refusal {
                Some(
                    lockstep_sim::vocabulary::message::Refusal::StaleToken { presented, .. }
                    | lockstep_sim::vocabulary::message::Refusal::SequencerInvalid { presented },
                ) => Some(presented.0.to_string()),
                _ => None,
            },
        ),
        MarkKind::Stale { token } => ("stale", Some(token.0.to_string())),
        MarkKind::LostUpdate { token } => ("lost_update", token.map(|t| t.0.to_string())),
        MarkKind::Duplicated => ("duplicated", None),
        MarkKind::ClockJump { .. } | MarkKind::Intervention => ("none", None),
    };
    let (onclick, onkeydown) = open_event(ctx, mark.event);
    let lane_top = mark.lane as f64 * LANE_HEIGHT;
    let hit = lockstep_view::layout::frame::glyph_box(mark);
    html! {
        <g class={classes!("mark", format!("mark-{}", mark_kind(mark.kind)))} data-testid="event-mark"
            data-kind={mark_kind(mark.kind)} data-outcome={outcome} data-token={token}
            data-lane={lane_name(ctx, mark.lane)}
            data-event-id={mark.event.to_string()}
            tabindex="0" role="button" aria-label={label.clone()}
            {onclick} {onkeydown}>
            <title>{ label }</title>
            <rect class="hit" x={px(hit.x - 4.0)} y={px(hit.y - 4.0)} width={px(hit.width + 8.0)} height={px(hit.height + 8.0)} />
            { glyph(mark.kind, x, y, lane_top) }
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct BandProps {
    band: BandShape,
    lanes_height: f64,
    ctx: Ctx,
}

/// One stretch of time over which an invariant was broken, across every lane, and stronger on
/// the lanes that broke it: a promise of the lock (calm) or the data (the alarm colour).
#[component]
fn Band(props: &BandProps) -> Html {
    let (band, lanes_height, ctx) = (&props.band, props.lanes_height, &props.ctx);
    let (onclick, onkeydown) = open_event(ctx, band.from_event);
    let label = band_text(band);
    let concern = concern_id(band.invariant.concern());
    // A band counted on an earlier one of its invariant has no label of its own.
    let shown = match (band.repeats, band.label) {
        (0, _) => "counted",
        (_, LabelState::HoverOnly) => "hover",
        (_, LabelState::Shown | LabelState::Unlabelled) => "shown",
    };
    let culprits = band
        .lanes
        .iter()
        .map(|&lane| lane_name(ctx, lane))
        .collect::<Vec<_>>()
        .join(" ");
    html! {
        <g class={classes!("band", format!("band-{concern}"), band.invariant.is_history().then_some("history"))}
            data-testid="violation-band" data-invariant={band.invariant.id()} data-concern={concern}
            data-lanes={culprits} data-repeats={band.repeats.to_string()}
            data-event-id={band.from_event.to_string()} data-open={band.open.to_string()}
            data-label={shown}
            tabindex="0" role="button" aria-label={format!("Violated: {}. Open the event that broke it.", band.invariant.statement())}
            {onclick} {onkeydown}>
            <title>{ label }</title>
            <rect x={px(band.x)} y="0" width={px(band.width)} height={px(lanes_height)} />
            { for band.lanes.iter().map(|&lane| html! {
                <rect class="band-lane" x={px(band.x)} y={px(lane as f64 * LANE_HEIGHT)} width={px(band.width)} height={px(LANE_HEIGHT)} />
            }) }
        </g>
    }
}

/// "lock" or "data": the group an invariant belongs to, as classes and test hooks name it.
pub fn concern_id(concern: Concern) -> &'static str {
    match concern {
        Concern::Lock => "lock",
        Concern::Data => "data",
    }
}
