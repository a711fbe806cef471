//! The stage beside the timeline: the cast as boxes with the messages on their way travelling
//! between them, at the position the timeline shows (see [`lockstep_view::stage`], which computes all
//! of it; here its [`Scene`] only becomes SVG). Selecting a box selects its lane, selecting a
//! message selects it, as on the timeline. While playing, a message glides to its next place
//! over one autoplay tick (a CSS transition on its transform); with reduced motion it jumps.

use crate::components::Shared;
use crate::state::{Action, Selection};
use lockstep_sim::engine::sim::Sim;
use lockstep_view::layout::{LaneRole, Layout};
use lockstep_view::stage::cast::{Liveness, ResourceView, View};
use lockstep_view::stage::flights::Motion;
use lockstep_view::stage::geometry::Placement;
use lockstep_view::stage::scene::{CutLink, Figure, Mover, SCISSORS_RADIUS, Scene};
use lockstep_view::svg_number::px;
use yew::prelude::*;

/// How long a message glides after a Step, Back or scrub by hand, in ms: long enough to see
/// where it went, short enough not to lag behind the next click.
pub const STEP_GLIDE_MS: u32 = 200;

#[derive(Properties, PartialEq)]
pub struct StageProps {
    pub layout: Shared<Layout>,
    /// The simulation at the shown position.
    pub sim: Shared<Sim>,
    pub position: usize,
    pub now: u64,
    pub selection: Selection,
    pub dispatch: Callback<Action>,
    /// How long a message takes to glide to its next place: the autoplay interval while
    /// playing.
    pub glide_ms: u32,
}

#[component]
pub fn Stage(props: &StageProps) -> Html {
    // The boxes' places depend on the lanes only: once per run.
    let placement = use_memo(props.layout.clone(), |layout| {
        Placement::of(&layout.lanes.iter().map(|l| l.role).collect::<Vec<_>>())
    });
    let scene = Scene::of(
        &props.layout,
        &placement,
        &props.sim,
        props.position,
        props.now,
    );
    let cast = props.sim.cast();
    let holder = scene.holder.map(|node| cast.name(node).to_owned());
    let truth = match &holder {
        Some(name) => format!("The lock service says {name} holds the lock."),
        None => "The lock service names no single holder now.".to_owned(),
    };
    html! {
        <section class="stage" data-testid="stage" aria-label="Stage: the cast at this moment"
            style={format!("--stage-glide: {}ms", props.glide_ms)}>
            <p class="stage-truth" data-testid="stage-holder" data-holder={holder.unwrap_or_default()}>{ truth }</p>
            <svg class="stage-svg" viewBox={format!("0 0 {} {}", px(scene.width), px(scene.height))}
                role="group" aria-label="The clients, the lock service's nodes and the resource, with the messages on their way">
                // Under the boxes: a cut link's line runs where its messages would; its "✂"
                // stands clear of every box.
                <g class="stage-cuts">
                    { for scene.cuts.iter().map(cut_link) }
                </g>
                <g class="stage-figures">
                    { for scene.figures.into_iter().map(|figure| {
                        let (node, lane) = (figure.actor.node, figure.lane);
                        html! {
                            <FigureBox key={lane} selected={props.selection == Selection::Node(node)}
                                {figure} dispatch={props.dispatch.clone()} />
                        }
                    }) }
                </g>
                <g class="stage-messages">
                    { for scene.movers.into_iter().map(|mover| {
                        let message = mover.flight.message;
                        html! {
                            <MoverDot key={message.0} selected={props.selection == Selection::Message(message)}
                                {mover} dispatch={props.dispatch.clone()} />
                        }
                    }) }
                </g>
            </svg>
            <p class="stage-legend">
                <svg class="stage-key" viewBox="-6 -6 12 12" aria-hidden="true"><circle class="dot" r="5" /></svg>
                { " a message on its way: select it to hold, release or drop it" }
            </p>
        </section>
    }
}

/// A link the network has cut: a dashed line on the messages' path with a "✂" half way.
fn cut_link(cut: &CutLink) -> Html {
    let (start, end, middle) = (cut.track.start, cut.track.end, cut.middle);
    html! {
        <g class="stage-cut" data-testid="stage-cut" data-both-ways={cut.both_ways.to_string()}
            role="img" aria-label={cut.sentence.clone()}>
            <title>{ cut.sentence.clone() }</title>
            <line class="cut-line" x1={px(start.x)} y1={px(start.y)} x2={px(end.x)} y2={px(end.y)} />
            <circle class="scissors-ground" cx={px(middle.x)} cy={px(middle.y)} r={px(SCISSORS_RADIUS)} />
            <text class="scissors" x={px(middle.x)} y={px(middle.y + 4.0)} text-anchor="middle" aria-hidden="true">{ "✂" }</text>
        </g>
    }
}

/// Enter or Space on a focused box or message, as a click; kept from the page's shortcuts
/// (Space there means Play).
fn press(select: Callback<()>) -> (Callback<MouseEvent>, Callback<KeyboardEvent>) {
    let click = select.clone();
    let onclick = Callback::from(move |event: MouseEvent| {
        event.stop_propagation();
        click.emit(())
    });
    let onkeydown = Callback::from(move |key: KeyboardEvent| {
        if key.key() == "Enter" || key.key() == " " {
            key.prevent_default();
            key.stop_propagation();
            select.emit(())
        }
    });
    (onclick, onkeydown)
}

#[derive(Properties, PartialEq)]
struct FigureProps {
    figure: Figure,
    selected: bool,
    dispatch: Callback<Action>,
}

/// One member of the cast. A component of its own: a step changes one or two boxes, and the
/// others are compared, not drawn again.
#[component]
fn FigureBox(props: &FigureProps) -> Html {
    let figure = &props.figure;
    let actor = &figure.actor;
    let (node, selected) = (actor.node, props.selected);
    let dispatch = props.dispatch.clone();
    let (onclick, onkeydown) = press(Callback::from(move |()| {
        dispatch.emit(Action::Select(if selected {
            Selection::Nothing
        } else {
            Selection::Node(node)
        }))
    }));
    let role = match actor.role {
        LaneRole::Client => "client",
        LaneRole::Service => "service",
        LaneRole::Resource => "resource",
    };
    let liveness = match actor.liveness {
        Liveness::Running => "running",
        Liveness::Paused => "paused",
        Liveness::Crashed => "crashed",
    };
    let (believes, told) = match actor.view {
        View::Client(client) => (
            Some(if client.believes { "yes" } else { "no" }),
            client.token.map(|t| t.0.to_string()),
        ),
        _ => (None, None),
    };
    let (holder, record_token) = service_record(figure);
    let highest = match actor.view {
        View::Resource(ResourceView::Fenced { highest, .. }) => {
            Some(highest.map_or_else(String::new, |t| t.0.to_string()))
        }
        _ => None,
    };
    // The name is the box's words in order (what a speech-control user would say), and stands
    // for them: the lines are hidden from assistive technology, which would read them again.
    // Out of the tab order (`tabindex="-1"`): the lane names select the same nodes, and a
    // keyboard user would otherwise pass every node twice on the way to Step.
    let label = format!("{}. Select to act on it.", figure.label);
    let believing = believes == Some("yes");
    html! {
        <g class={classes!("stage-node", role, liveness, selected.then_some("selected"), believing.then_some("believes"))}
            data-testid="stage-node" data-node={actor.name.clone()} data-role={role}
            data-liveness={liveness} data-believes={believes} data-token={told}
            data-holder={holder} data-record-token={record_token} data-highest-token={highest}
            role="button" tabindex="-1" aria-pressed={selected.to_string()}
            aria-label={label}
            {onclick} {onkeydown}>
            { box_contents(figure) }
        </g>
    }
}

/// A service node's record, unless it is down: the client it names and the token.
fn service_record(figure: &Figure) -> (Option<String>, Option<String>) {
    let actor = &figure.actor;
    match actor.view {
        View::Service(service) if actor.liveness != Liveness::Crashed => (
            Some(
                figure
                    .record_holder
                    .as_ref()
                    .map_or_else(String::new, |(name, _)| name.clone()),
            ),
            service.record.token().map(|t| t.0.to_string()),
        ),
        _ => (None, None),
    }
}

/// What the box draws: the box, a client's stripe in its lane's hue, the name, the lines, and
/// the swatch of the client a service's record names.
fn box_contents(figure: &Figure) -> Html {
    let (actor, r) = (&figure.actor, figure.rect);
    html! {
        <>
            <rect class="stage-box" x={px(r.x)} y={px(r.y)} width={px(r.width)} height={px(r.height)} rx="6" />
            if actor.role == LaneRole::Client {
                <g class={format!("hue-{}", figure.lane)}>
                    <rect class="stage-stripe" x={px(r.x)} y={px(r.y)} width="4" height={px(r.height)} rx="2" />
                </g>
            }
            <text class="stage-name" x={px(r.x + 8.0)} y={px(r.y + 15.0)} aria-hidden="true">{ actor.name.clone() }</text>
            { for figure.lines.iter().enumerate().map(|(i, line)| html! {
                <text class="stage-line" x={px(r.x + 8.0)} y={px(r.y + 28.0 + 12.5 * i as f64)} aria-hidden="true">
                    // A leading space, which SVG does not draw, keeps the lines' words apart for
                    // tools that join the box's text (axe's check of the name against it).
                    { format!(" {line}") }
                </text>
            }) }
            if let Some((_, hue)) = &figure.record_holder {
                <g class={format!("hue-{hue}")}>
                    <rect class="stage-swatch" x={px(r.right() - 12.0)} y={px(r.bottom() - 12.0)} width="6" height="6" rx="1" />
                </g>
            }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct MoverProps {
    mover: Mover,
    selected: bool,
    dispatch: Callback<Action>,
}

/// One message on its way: its path, faint, and the message on it, which moves.
#[component]
fn MoverDot(props: &MoverProps) -> Html {
    let mover = &props.mover;
    let flight = mover.flight;
    let (message, selected) = (flight.message, props.selected);
    let dispatch = props.dispatch.clone();
    let (onclick, onkeydown) = press(Callback::from(move |()| {
        dispatch.emit(Action::Select(if selected {
            Selection::Nothing
        } else {
            Selection::Message(message)
        }))
    }));
    let state = match flight.motion {
        Motion::InFlight => "in_flight",
        Motion::Held => "held",
    };
    let description = format!(
        "message {}: {}, {}",
        message.0,
        mover.sentence,
        state.replace('_', " ")
    );
    let (start, end) = (mover.track.start, mover.track.end);
    html! {
        <>
            <line class={classes!("stage-track", state)} x1={px(start.x)} y1={px(start.y)} x2={px(end.x)} y2={px(end.y)} />
            <g class={classes!("stage-message", state, selected.then_some("selected"))}
                data-testid="stage-message" data-message-id={message.0.to_string()} data-state={state}
                data-label={flight.label} data-fraction={format!("{:.3}", flight.fraction)}
                style={format!("transform: translate({}px, {}px)", px(mover.at.x), px(mover.at.y))}
                role="button" tabindex="0" aria-pressed={selected.to_string()}
                aria-label={format!("{description}: select to hold, release or drop it")}
                {onclick} {onkeydown}>
                <title>{ description }</title>
                <circle class="hit" r="11" />
                <circle class="dot" r="5.5" />
                if flight.motion == Motion::Held {
                    <rect class="held-sign" x="-2.5" y="-3" width="1.6" height="6" />
                    <rect class="held-sign" x="0.9" y="-3" width="1.6" height="6" />
                }
                <text class="stage-message-label" y="-10" text-anchor="middle" aria-hidden="true">{ flight.label }</text>
            </g>
        </>
    }
}
