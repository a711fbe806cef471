//! The timeline's legend: one sample of each bar, message and mark the run draws, made with the
//! timeline's own shapes, patterns and classes, and a few words for each.
//!
//! Lists only what the run uses (its whole layout, not just the shown position): each entry then
//! names something the reader will see, and the legend stays one or two rows at 1280 px. On a
//! narrow screen it is a disclosure, closed. Draws nothing of the run itself and decides nothing.

use crate::components::Shared;
use crate::components::timeline_shapes::{glyph, patterns, pause_sign};
use lockstep_sim::vocabulary::invariant::Concern;
use lockstep_sim::vocabulary::message::Refusal;
use lockstep_sim::world::ids::MessageId;
use lockstep_sim::world::token::FencingToken;
use lockstep_view::layout::frame::{ArrowShape, ArrowState};
use lockstep_view::layout::{Fate, Layout, MarkKind, SpanKind};
use yew::prelude::*;

/// One entry of the legend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    Lease,
    StoredLease,
    Belief,
    Overhang,
    Pause,
    Crash,
    InFlight,
    Delivered,
    Held,
    Lost,
    Accepted,
    Stale,
    LostUpdate,
    Rejected,
    Duplicated,
    ClockJump,
    Intervention,
    Cut,
    /// A promise of the lock broken (one believer, one lease, tokens increase).
    LockViolation,
    /// The data broken (what fencing protects).
    DataViolation,
}

impl Key {
    /// The few words beside the sample.
    pub fn words(self) -> &'static str {
        match self {
            Key::Lease => "lease (the service's truth)",
            Key::StoredLease => "lease kept in the log, no leader serving it",
            Key::Belief => "belief (what a client thinks)",
            Key::Overhang => "belief outlives the lease",
            Key::Pause => "paused",
            Key::Crash => "crashed",
            Key::InFlight => "message in flight",
            Key::Delivered => "delivered",
            Key::Held => "held",
            Key::Lost => "lost or dropped",
            Key::Accepted => "write accepted",
            Key::Stale => "stale write accepted",
            Key::LostUpdate => "update lost",
            Key::Rejected => "write rejected",
            Key::Duplicated => "charged twice",
            Key::ClockJump => "clock jump",
            Key::Intervention => "intervention",
            Key::Cut => "link cut",
            Key::LockViolation => "beliefs overlap (leases allow it)",
            Key::DataViolation => "data broken (fencing protects it)",
        }
    }

    /// The machine name, for test hooks.
    pub fn id(self) -> &'static str {
        match self {
            Key::Lease => "lease",
            Key::StoredLease => "stored_lease",
            Key::Belief => "belief",
            Key::Overhang => "overhang",
            Key::Pause => "pause",
            Key::Crash => "crash",
            Key::InFlight => "in_flight",
            Key::Delivered => "delivered",
            Key::Held => "held",
            Key::Lost => "lost",
            Key::Accepted => "write_accepted",
            Key::Stale => "stale_write",
            Key::LostUpdate => "lost_update",
            Key::Rejected => "write_rejected",
            Key::Duplicated => "charged_twice",
            Key::ClockJump => "clock_jumped",
            Key::Intervention => "intervention",
            Key::Cut => "cut",
            Key::LockViolation => "violation_lock",
            Key::DataViolation => "violation_data",
        }
    }
}

/// The entries a run's timeline needs, in the legend's order.
pub fn keys_of(layout: &Layout) -> Vec<Key> {
    let span = |f: fn(&SpanKind) -> bool| layout.spans.iter().any(|s| f(&s.kind));
    let mark = |f: fn(&MarkKind) -> bool| layout.marks.iter().any(|m| f(&m.kind));
    let messages = !layout.arrows.is_empty();
    let broke = |concern: Concern| {
        layout
            .bands
            .iter()
            .any(|b| b.invariant.concern() == concern)
    };
    [
        (Key::Lease, span(|k| matches!(k, SpanKind::Lease { .. }))),
        (
            Key::StoredLease,
            span(|k| matches!(k, SpanKind::StoredLease { .. })),
        ),
        (Key::Belief, span(|k| matches!(k, SpanKind::Belief { .. }))),
        (Key::Overhang, span(|k| *k == SpanKind::Overhang)),
        (Key::Pause, span(|k| *k == SpanKind::Pause)),
        (Key::Crash, span(|k| *k == SpanKind::Crash)),
        (Key::InFlight, messages),
        (Key::Delivered, messages),
        (Key::Held, layout.arrows.iter().any(|a| a.held.is_some())),
        (
            Key::Lost,
            layout
                .arrows
                .iter()
                .any(|a| matches!(a.fate, Fate::Lost(_))),
        ),
        (
            Key::Accepted,
            mark(|k| matches!(k, MarkKind::Accepted { .. })),
        ),
        (Key::Stale, mark(|k| matches!(k, MarkKind::Stale { .. }))),
        (
            Key::LostUpdate,
            mark(|k| matches!(k, MarkKind::LostUpdate { .. })),
        ),
        (
            Key::Rejected,
            mark(|k| matches!(k, MarkKind::Rejected { .. })),
        ),
        (Key::Duplicated, mark(|k| *k == MarkKind::Duplicated)),
        (
            Key::ClockJump,
            mark(|k| matches!(k, MarkKind::ClockJump { .. })),
        ),
        (Key::Intervention, mark(|k| *k == MarkKind::Intervention)),
        (Key::Cut, !layout.cuts.is_empty()),
        (Key::LockViolation, broke(Concern::Lock)),
        (Key::DataViolation, broke(Concern::Data)),
    ]
    .into_iter()
    .filter_map(|(key, used)| used.then_some(key))
    .collect()
}

#[derive(Properties, PartialEq)]
pub struct LegendProps {
    pub layout: Shared<Layout>,
    /// The timeline's name: the samples' patterns get ids of their own from it.
    pub name: AttrValue,
    /// A narrow screen: a closed disclosure rather than rows.
    pub compact: bool,
}

/// Sample size, in px.
const WIDTH: f64 = 28.0;
const HEIGHT: f64 = 16.0;

#[component]
pub fn Legend(props: &LegendProps) -> Html {
    let ids = format!("legend-{}", props.name);
    let keys = keys_of(&props.layout);
    let list = html! {
        <ul class="legend-keys">
            { for keys.iter().map(|key| html! {
                <li class="legend-key" data-key={key.id()}>
                    <svg class="timeline-svg legend-sample" width={WIDTH.to_string()} height={HEIGHT.to_string()}
                        viewBox={format!("0 0 {WIDTH} {HEIGHT}")} aria-hidden="true">
                        { sample(*key, &ids) }
                    </svg>
                    { key.words() }
                </li>
            }) }
        </ul>
    };
    // The samples' patterns, in a drawing of no size of their own.
    let defs = html! {
        <svg class="legend-defs" width="0" height="0" aria-hidden="true">{ patterns(&ids) }</svg>
    };
    if props.compact {
        html! {
            <details class="legend" data-testid="timeline-legend">
                <summary>{ "Legend" }</summary>
                { defs }
                { list }
            </details>
        }
    } else {
        html! {
            <div class="legend" data-testid="timeline-legend" role="group" aria-label="Legend">
                { defs }
                { list }
            </div>
        }
    }
}

/// The sample of `key`, drawn as the timeline draws it.
fn sample(key: Key, ids: &str) -> Html {
    let bar = |class: &str, fill: Option<String>| {
        html! {
            <g class={class.to_owned()}>
                <rect x="1" y="2" width={(WIDTH - 2.0).to_string()} height="12" rx="3"
                    style={fill.map(|f| format!("fill: {f}"))} />
            </g>
        }
    };
    let mark = |kind: MarkKind| {
        html! {
            <g class={format!("mark mark-{}", lockstep_view::words::mark_kind(kind))}>
                { glyph(kind, WIDTH / 2.0, HEIGHT / 2.0, -1.0) }
            </g>
        }
    };
    match key {
        Key::Lease => bar("bar lease hue-0", None),
        Key::StoredLease => bar("bar lease stored hue-0", None),
        Key::Belief => bar("bar belief hue-0", None),
        Key::Overhang => bar("bar overhang", Some(format!("url(#overhang-{ids})"))),
        Key::Pause => html! {
            <g class="bar pause">
                <rect x="1" y="1" width={(WIDTH - 2.0).to_string()} height="14" rx="3"
                    style={format!("fill: url(#hatch-{ids})")} />
                { pause_sign(4.0, 3.5) }
            </g>
        },
        Key::Crash => html! {
            <g class="bar crash">
                <rect x="1" y="1" width={(WIDTH - 2.0).to_string()} height="14" rx="3" />
            </g>
        },
        Key::InFlight => message(ArrowState::InFlight, "message-in_flight", None),
        Key::Delivered => message(ArrowState::Delivered, "message-delivered", None),
        Key::Held => message(ArrowState::Held, "message-held", Some("⏸")),
        Key::Lost => message(ArrowState::Lost, "message-lost", Some("✕")),
        Key::Accepted => mark(MarkKind::Accepted { token: None }),
        Key::Stale => mark(MarkKind::Stale {
            token: FencingToken(0),
        }),
        Key::LostUpdate => mark(MarkKind::LostUpdate { token: None }),
        Key::Rejected => mark(MarkKind::Rejected {
            refusal: Some(Refusal::NoToken),
        }),
        Key::Duplicated => mark(MarkKind::Duplicated),
        Key::ClockJump => mark(MarkKind::ClockJump { by_ms: 1 }),
        Key::Intervention => mark(MarkKind::Intervention),
        Key::Cut => cut(),
        Key::LockViolation => band("lock"),
        Key::DataViolation => band("data"),
    }
}

/// The sample of a message arrow in `state`, with its glyph at the head.
fn message(state: ArrowState, class: &str, glyph: Option<&str>) -> Html {
    let arrow = ArrowShape {
        message: MessageId(0),
        label: "",
        state,
        x1: 2.0,
        y1: HEIGHT / 2.0,
        x2: WIDTH - 4.0,
        y2: HEIGHT / 2.0,
        due: None,
        sent_event: 0,
    };
    let [(x0, y0), (x1, y1), (x2, y2)] = arrow.head();
    let head = (state == ArrowState::Delivered || state == ArrowState::InFlight)
        .then(|| format!("M{x0} {y0}L{x1} {y1}L{x2} {y2}z"));
    html! {
        <g class={format!("message {class}")}>
            <line class="shaft" x1={arrow.x1.to_string()} y1={arrow.y1.to_string()}
                x2={arrow.x2.to_string()} y2={arrow.y2.to_string()} />
            if let Some(d) = head {
                <path class="arrow-head" {d} />
            }
            if let Some(glyph) = glyph {
                <text x={arrow.x2.to_string()} y={(arrow.y2 + 4.0).to_string()} text-anchor="middle" class="arrow-glyph">{ glyph }</text>
            }
        </g>
    }
}

/// The sample of a cut link.
fn cut() -> Html {
    html! {
        <g class="cut">
            <line class="cut-line" x1="1" x2={(WIDTH - 1.0).to_string()} y1={(HEIGHT - 2.0).to_string()} y2={(HEIGHT - 2.0).to_string()} />
            <text class="scissors" x="6" y={(HEIGHT - 4.0).to_string()} text-anchor="middle">{ "✂" }</text>
        </g>
    }
}

/// The sample of a violation band of `concern` (`lock` or `data`).
fn band(concern: &str) -> Html {
    html! {
        <g class={format!("band band-{concern}")}>
            <rect x="1" y="0" width={(WIDTH - 2.0).to_string()} height={HEIGHT.to_string()} />
        </g>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::scenario::catalogue;
    use lockstep_view::run::Run;

    fn keys(id: &str) -> Vec<Key> {
        let scenario = catalogue::find(id)
            .and_then(|b| b.load().ok())
            .expect("in the catalogue");
        let run = Run::record(&scenario, scenario.seed, &[]).expect("runs");
        keys_of(&Layout::of(&run))
    }

    #[test]
    fn the_legend_lists_what_the_run_draws_and_nothing_else() {
        let s2 = keys("s2-gc-pause-fenced");
        for key in [
            Key::Lease,
            Key::Belief,
            Key::Overhang,
            Key::Pause,
            Key::Accepted,
            Key::Rejected,
            Key::Intervention,
            Key::LockViolation,
        ] {
            assert!(s2.contains(&key), "S2 draws {key:?}: {s2:?}");
        }
        assert!(!s2.contains(&Key::ClockJump), "no clock jumps in S2");
        assert!(keys("s10-redlock-clock-jump").contains(&Key::ClockJump));
        assert!(keys("s15-consensus-leader-crash").contains(&Key::Crash));
        let s1 = keys("s1-gc-pause-unfenced");
        assert!(
            s1.contains(&Key::Stale) && s1.contains(&Key::Accepted),
            "{s1:?}"
        );
        assert!(!s2.contains(&Key::Stale), "fencing on: nothing stale");
        assert!(keys("s14-consensus-client-partitioned").contains(&Key::Cut));
        assert!(!s2.contains(&Key::Cut));
    }
}
