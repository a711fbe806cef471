//! The timeline's view state, its own and never the run's: how wide its plot is measured, where
//! the lanes' names sit, and which span of the run it shows (zoomed, panned, following now).

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

impl ViewState {
    pub fn following(&self) -> bool {
        *self.follow
    }

    /// The span shown on a plot `width` px across at time `now` of a run ending at `end`.
    pub fn shown(&self, width: f64, now: u64, end: u64) -> Viewport {
        let current = Viewport {
            width,
            ..*self.view
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
/// shows the whole of it again; a new run of the same scope keeps the user's zoom.
#[hook]
pub fn use_view_state(layout: &Shared<Layout>, scope: &AttrValue, width: f64) -> ViewState {
    let view = use_state(|| Viewport::opening(layout, DEFAULT_WIDTH));
    let follow = use_state(|| true);
    {
        let view = view.clone();
        let follow = follow.clone();
        let layout = layout.clone();
        use_effect_with((scope.clone(), width), move |_| {
            view.set(Viewport::opening(&layout, width));
            follow.set(true);
        });
    }
    ViewState { view, follow }
}
