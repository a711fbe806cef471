//! The network cuts on the timeline: for as long as a link is cut, a dashed line along the
//! bottom of both its lanes, and a "✂" where the cut began. Draws the frame's `CutShape`s one to
//! one; where they go is `layout::frame`'s decision (`cut_line_y`, `scissors_box`).

use crate::components::Shared;
use lockstep_view::layout::Layout;
use lockstep_view::layout::frame::{CutShape, cut_line_y, scissors_box};
use lockstep_view::svg_number::px;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CutsProps {
    pub cuts: Vec<CutShape>,
    pub layout: Shared<Layout>,
}

#[component]
pub fn Cuts(props: &CutsProps) -> Html {
    let name = |lane: usize| {
        props
            .layout
            .lanes
            .get(lane)
            .map_or("?", |l| l.name.as_str())
            .to_owned()
    };
    html! {
        <g class="cuts">
            { for props.cuts.iter().map(|cut| {
                let (from, to) = (name(cut.from_lane), name(cut.to_lane));
                let words = if cut.both_ways {
                    format!("Link between {from} and {to} cut: messages either way are lost")
                } else {
                    format!("Link from {from} to {to} cut: its messages are lost")
                };
                html! {
                    <g class={classes!("cut", cut.open.then_some("open"))} key={format!("{}-{}-{}", cut.from_event, cut.from_lane, cut.to_lane)}
                        data-testid="cut-link" data-from={from} data-to={to}
                        data-both-ways={cut.both_ways.to_string()} data-open={cut.open.to_string()}
                        data-event-id={cut.from_event.to_string()}>
                        <title>{ words }</title>
                        { for [cut.from_lane, cut.to_lane].into_iter().map(|lane| {
                            let y = cut_line_y(lane);
                            let mark = scissors_box(cut.x, lane);
                            html! {
                                <>
                                    <line class="cut-line" x1={px(cut.x)} x2={px(cut.x + cut.width)} y1={px(y)} y2={px(y)} />
                                    <text class="scissors" x={px(mark.x + mark.width / 2.0)} y={px(mark.y + mark.height - 1.0)}
                                        text-anchor="middle" aria-hidden="true">{ "✂" }</text>
                                </>
                            }
                        }) }
                    </g>
                }
            }) }
        </g>
    }
}
