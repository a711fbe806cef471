//! The timeline's view state, its own and never the run's: how wide its plot is measured, where
//! the lanes' names sit, and which span of the run it shows (zoomed, panned, following now).
//!
//! While comparing, the two timelines share one view ([`SharedTimeAxis`]): the same origin and
//! the same px per ms, so 0 ms and "2 s" stand at the same x in both, and a zoom or pan on
//! either moves both. The main timeline leads (it opens the view on its run); the twin follows.

use crate::components::Shared;
use lockstep_view::layout::Layout;
use lockstep_view::layout::frame::{LaneNames, Viewport};
use web_sys::Element;
use yew::prelude::*;

/// Px across the plot before the element has been measured.
pub const DEFAULT_WIDTH: f64 = 800.0;
/// Up to this window width the lanes' names sit above the lanes and the plot takes the whole
/// width: the stylesheet's `max-width: 600px` rule, which measures the same `innerWidth`.
const NARROW: f64 = 600.0;

fn lane_names_now() -> LaneNames {
    let narrow = web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .is_some_and(|w| w <= NARROW);
    if narrow {
        LaneNames::Above
    } else {
        LaneNames::Beside
    }
}

/// The plot's width in px and where the lanes' names go, measured on mount and again whenever
/// the window is resized.
#[hook]
pub fn use_plot_size(plot: &NodeRef) -> (f64, LaneNames) {
    let width = use_state(|| DEFAULT_WIDTH);
    let names = use_state(lane_names_now);
    {
        let plot = plot.clone();
        let width = width.clone();
        let names = names.clone();
        use_effect_with((), move |_| {
            let measure = move || {
                names.set(lane_names_now());
                if let Some(element) = plot.cast::<Element>() {
                    let w = f64::from(element.client_width()).max(200.0);
                    width.set(w);
                }
            };
            measure();
            let listener = web_sys::window().map(|window| {
                gloo_events::EventListener::new(&window, "resize", move |_| measure())
            });
            move || drop(listener)
        });
    }
    (*width, *names)
}

/// The span the user chose, and whether the view follows the present.
#[derive(Clone)]
pub struct ViewState {
    view: UseStateHandle<Viewport>,
    follow: UseStateHandle<bool>,
}

impl PartialEq for ViewState {
    fn eq(&self, other: &Self) -> bool {
        *self.view == *other.view && *self.follow == *other.follow
    }
}

/// Whose view a timeline shows: its own, or the one it shares with another timeline (leading:
/// it opens the shared view on its run; following: it shows the leader's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AxisRole {
    #[default]
    Own,
    Lead,
    Follow,
}

#[derive(Properties, PartialEq)]
pub struct SharedTimeAxisProps {
    pub children: Html,
}

/// Holds the one view the timelines under it share (those whose role is not `Own`): an
/// ancestor of both, so that a zoom on one draws both again.
#[component]
pub fn SharedTimeAxis(props: &SharedTimeAxisProps) -> Html {
    let view = use_state(|| Viewport::whole(1, DEFAULT_WIDTH));
    let follow = use_state(|| true);
    html! {
        <ContextProvider<ViewState> context={ViewState { view, follow }}>
            { props.children.clone() }
        </ContextProvider<ViewState>>
    }
}

impl ViewState {
    pub fn following(&self) -> bool {
        *self.follow
    }

    /// The span shown on a plot `width` px across at time `now` of a run ending at `end`: at the
    /// px per ms the span was chosen at, so that a plot of another width (the other timeline
    /// of a comparison) shows the same time at the same x.
    pub fn shown(&self, width: f64, now: u64, end: u64) -> Viewport {
        let chosen = *self.view;
        let current = Viewport {
            width,
            span: chosen.span * width / chosen.width.max(1.0),
            ..chosen
        };
        if *self.follow {
            current.following(now, end)
        } else {
            current
        }
    }

    pub fn set(&self, next: Viewport, keep_following: bool) {
        self.view.set(next);
        self.follow.set(keep_following);
    }

    pub fn toggle_follow(&self) {
        self.follow.set(!*self.follow);
    }
}

/// The view of `layout`. A new run in another `scope` (another scenario), or a new width,
/// shows the whole of it again; a new run of the same scope keeps the user's zoom. A timeline
/// that shares its view (under a [`SharedTimeAxis`]) uses the shared one; only the leader opens
/// it on its run.
#[hook]
pub fn use_view_state(
    layout: &Shared<Layout>,
    scope: &AttrValue,
    width: f64,
    role: AxisRole,
) -> ViewState {
    let own = ViewState {
        view: use_state(|| Viewport::opening(layout, DEFAULT_WIDTH)),
        follow: use_state(|| true),
    };
    let shared = use_context::<ViewState>();
    let state = match (role, shared) {
        (AxisRole::Lead | AxisRole::Follow, Some(shared)) => shared,
        _ => own,
    };
    {
        let state = state.clone();
        let layout = layout.clone();
        use_effect_with((scope.clone(), width), move |_| {
            if role != AxisRole::Follow {
                state.set(Viewport::opening(&layout, width), true);
            }
        });
    }
    state
}
