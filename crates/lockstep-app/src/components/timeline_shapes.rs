//! The timeline's drawn symbols — the pause sign, the hatchings and arrowhead, the marks'
//! glyphs — shared by the timeline and its legend, which draws its samples with them. Shapes
//! only: nothing here reads the run or handles input.

use lockstep_view::layout::MarkKind;
use lockstep_view::svg_number::px;
use yew::prelude::*;

/// The pause sign (two bars) with its top left at `x`, `y`: drawn, not a font glyph.
pub fn pause_sign(x: f64, y: f64) -> Html {
    html! {
        <g class="pause-sign" aria-hidden="true">
            <rect x={px(x)} y={px(y)} width="3" height="9" />
            <rect x={px(x + 5.0)} y={px(y)} width="3" height="9" />
        </g>
    }
}

/// The hatchings and the arrowhead, with ids of their own per timeline (`name`).
pub fn patterns(name: &str) -> Html {
    html! {
        <defs>
            <pattern id={format!("hatch-{name}")} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                <line x1="0" y1="0" x2="0" y2="6" class="hatch-line" stroke-width="3" />
            </pattern>
            <pattern id={format!("overhang-{name}")} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">
                <line x1="0" y1="0" x2="0" y2="6" class="overhang-line" stroke-width="3" />
            </pattern>
            <marker id={format!("head-{name}")} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head" />
            </marker>
        </defs>
    }
}

/// A mark's glyph centred on `x`, `y` (an intervention's hangs from the lane's top), inside the
/// box [`lockstep_view::layout::frame::glyph_box`] gives it. The legend draws the same.
pub fn glyph(kind: MarkKind, x: f64, y: f64, lane_top: f64) -> Html {
    match kind {
        MarkKind::Accepted { .. } => html! {
            <>
                <circle cx={px(x)} cy={px(y)} r="7" class="disc" />
                <text x={px(x)} y={px(y + 3.5)} text-anchor="middle" class="glyph" aria-hidden="true">{ "✓" }</text>
            </>
        },
        // Accepted, but it should not have been: a warning triangle, and a diamond for the
        // updates it wiped out. Shape, glyph and label tell them apart, not colour alone.
        MarkKind::Stale { .. } => html! {
            <>
                <path d={format!("M {} {} l 7.5 13.5 l -15 0 z", px(x), px(y - 7.5))} class="triangle" />
                <text x={px(x)} y={px(y + 5.0)} text-anchor="middle" class="glyph" aria-hidden="true">{ "!" }</text>
            </>
        },
        MarkKind::LostUpdate { .. } => html! {
            <>
                <path d={format!("M {} {} l 7 7 l -7 7 l -7 -7 z", px(x), px(y - 7.0))} class="diamond" />
                <text x={px(x)} y={px(y + 3.5)} text-anchor="middle" class="glyph" aria-hidden="true">{ "−" }</text>
            </>
        },
        MarkKind::Rejected { .. } => html! {
            <>
                <rect x={px(x - 7.0)} y={px(y - 7.0)} width="14" height="14" class="square" />
                <text x={px(x)} y={px(y + 3.5)} text-anchor="middle" class="glyph" aria-hidden="true">{ "✕" }</text>
            </>
        },
        MarkKind::Duplicated => html! {
            <>
                <rect x={px(x - 7.0)} y={px(y - 7.0)} width="14" height="14" class="square" />
                <text x={px(x)} y={px(y + 3.5)} text-anchor="middle" class="glyph" aria-hidden="true">{ "2" }</text>
            </>
        },
        MarkKind::ClockJump { .. } => html! {
            <polyline class="zigzag" points={format!("{},{} {},{} {},{} {},{} {},{}",
                px(x - 5.0), px(y + 8.0), px(x - 2.5), px(y - 8.0), px(x), px(y + 8.0),
                px(x + 2.5), px(y - 8.0), px(x + 5.0), px(y + 8.0))} />
        },
        MarkKind::Intervention => html! {
            <path class="intervention" d={format!("M {} {} l 5.5 -8 l -11 0 z", px(x), px(lane_top + 10.0))} />
        },
    }
}
