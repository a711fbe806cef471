//! The timeline's view state, its own and never the run's: how wide its plot is measured, where
//! the lanes' names sit, and which span of the run it shows (zoomed, panned, following now).
//!
//! While comparing, the two timelines show one time axis ([`SharedTimeAxis`]): the main
//! timeline leads and publishes the span it shows; the twin ([`FollowLead`]) shows the same
//! origin at the same px per ms, so 0 ms and "2 s" stand at the same x in both. The twin's own
//! view controls are hidden then: zooming the main timeline zooms both.

use crate::components::Shared;
use lockstep_view::layout::Layout;
use lockstep_view::layout::frame::{LaneNames, Viewport};
use std::cell::Cell;
use std::rc::Rc;
use web_sys::Element;
use yew::prelude::*;

/// Px across the plot before the element has been measured: the playground's plot in a 1280 px
/// window, the most common desktop one. The build draws the page at it (decision 43), so in such
/// a window the app's measure finds what the build drew, and the timeline does not redraw.
pub const DEFAULT_WIDTH: f64 = 760.0;

/// The width a page's plot has before it is measured, where it is not [`DEFAULT_WIDTH`] (a
/// lesson's plot, beside the lesson, in a 1280 px window): given by the page around its
/// timelines.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FirstWidth(pub f64);

/// The width this timeline's plot is drawn at before it is measured.
#[hook]
fn use_first_width() -> f64 {
    use_context::<FirstWidth>().map_or(DEFAULT_WIDTH, |first| first.0)
}
/// Up to this window width the lanes' names sit above the lanes and the plot takes the whole
/// width: the stylesheet's `max-width: 600px` rule, which measures the same `innerWidth`.
const NARROW: f64 = 600.0;

fn lane_names_now() -> LaneNames {
    let narrow = crate::platform::browser::window()
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
///
/// Measured in an effect, never in the render: the build's render (issue 41) has no window, and
/// the wasm's first render must match it, so both draw names beside a plot of the page's first
/// width ([`FirstWidth`]). On a narrow
/// window the stylesheet already lays that markup out as names above (its `max-width: 600px`
/// rule on `.timeline-body`); the measure then moves the labels clear of the names, narrows
/// their buttons and folds the legend.
#[hook]
pub fn use_plot_size(plot: &NodeRef) -> (f64, LaneNames) {
    let first = use_first_width();
    let width = use_state(|| first);
    let names = use_state(|| LaneNames::Beside);
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
            let listener = crate::platform::browser::window().map(|window| {
                gloo_events::EventListener::new(&window, "resize", move |_| measure())
            });
            move || drop(listener)
        });
    }
    (*width, *names)
}

/// The span the user chose, whether the view follows the present, and whether it still zooms in
/// on the start of the run while following (until the user picks a view of their own).
#[derive(Clone)]
pub struct ViewState {
    view: UseStateHandle<Viewport>,
    follow: UseStateHandle<bool>,
    /// The run's first activity while "follow now" zooms in on what has happened since
    /// ([`Viewport::near_now`]); `None` once the user zoomed, panned or asked for the whole run.
    near: UseStateHandle<Option<u64>>,
}

/// Whose view a timeline shows: its own, its own published for a follower (the main timeline
/// while comparing), or the leader's (the twin).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AxisRole {
    #[default]
    Own,
    Lead,
    Follow,
}

/// Where the leader publishes the span it shows: a setter, the same from render to render, so
/// the leader is never drawn again for it.
#[derive(Clone, PartialEq)]
struct Publish(UseStateSetter<Option<Viewport>>);

/// The span the leader drew in its latest render, kept while it renders: the follower, drawn
/// after it, reads it in the same pass. So the first render (the build's, decision 43, and the
/// browser's) draws the follower on the leader's axis, before any effect has published it.
#[derive(Clone)]
struct LeadDrawn(Rc<Cell<Option<Viewport>>>);

impl PartialEq for LeadDrawn {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The span the leader shows (its width included), for [`FollowLead`].
#[derive(Clone, PartialEq)]
struct LeadView(Option<Viewport>);

/// The span the leader shows, for the timelines inside a [`FollowLead`].
#[derive(Clone, PartialEq)]
struct FollowView(Option<Viewport>);

#[derive(Properties, PartialEq)]
pub struct AxisProps {
    pub children: Html,
}

/// Holds the span the leading timeline shows, for the timeline that follows it: an ancestor of
/// both. Only [`FollowLead`] listens to it, so a pan of the leader draws the follower again and
/// nothing else.
#[component]
pub fn SharedTimeAxis(props: &AxisProps) -> Html {
    let lead = use_state(|| None::<Viewport>);
    let drawn = use_memo((), |_| Cell::new(None::<Viewport>));
    html! {
        <ContextProvider<Publish> context={Publish(lead.setter())}>
            <ContextProvider<LeadDrawn> context={LeadDrawn(Rc::clone(&drawn))}>
                <ContextProvider<LeadView> context={LeadView(*lead)}>
                    { props.children.clone() }
                </ContextProvider<LeadView>>
            </ContextProvider<LeadDrawn>>
        </ContextProvider<Publish>>
    }
}

/// Around the timeline that follows the leader: hands it the leader's span.
#[component]
pub fn FollowLead(props: &AxisProps) -> Html {
    let lead = use_context::<LeadView>().and_then(|l| l.0);
    html! {
        <ContextProvider<FollowView> context={FollowView(lead)}>
            { props.children.clone() }
        </ContextProvider<FollowView>>
    }
}

/// The span a timeline of `role` shows, given the span its own view state shows: a follower
/// shows the leader's (same origin, same px per ms, on its own width); a leader publishes its
/// own.
#[hook]
pub fn use_time_axis(role: AxisRole, own: Viewport) -> Viewport {
    let publish = use_context::<Publish>();
    let drawn = use_context::<LeadDrawn>();
    if role == AxisRole::Lead
        && let Some(drawn) = &drawn
    {
        drawn.0.set(Some(own));
    }
    let lead = use_context::<FollowView>()
        .and_then(|f| f.0)
        .or_else(|| drawn.and_then(|d| d.0.get()));
    {
        let publish = publish.clone();
        use_effect_with(own, move |own| {
            if role == AxisRole::Lead
                && let Some(publish) = publish
            {
                publish.0.set(Some(*own));
            }
        });
    }
    match (role, lead) {
        (AxisRole::Follow, Some(lead)) => Viewport {
            start: lead.start,
            span: lead.span * own.width / lead.width.max(1.0),
            width: own.width,
        },
        _ => own,
    }
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
        match (*self.follow, *self.near) {
            (true, Some(first)) => current.near_now(first, now, end),
            (true, None) => current.following(now, end),
            (false, _) => current,
        }
    }

    /// The user's own view: kept as it is from now on, followed or not.
    pub fn set(&self, next: Viewport, keep_following: bool) {
        self.view.set(next);
        self.follow.set(keep_following);
        self.near.set(None);
    }

    /// Turns "follow now" off, keeping `shown` (what is on screen) as the user's view, or on.
    pub fn toggle_follow(&self, shown: Viewport) {
        if *self.follow {
            self.set(shown, false);
        } else {
            self.follow.set(true);
        }
    }
}

/// The view of `layout`. A new run in another `scope` (another scenario), or a new width,
/// opens it again (zoomed in on its start while following now); a new run of the same scope
/// keeps the user's zoom.
#[hook]
pub fn use_view_state(layout: &Shared<Layout>, scope: &AttrValue, width: f64) -> ViewState {
    let first = use_first_width();
    let view = use_state(|| Viewport::opening(layout, first));
    let follow = use_state(|| true);
    let near = use_state(|| first_activity(layout));
    {
        let view = view.clone();
        let follow = follow.clone();
        let near = near.clone();
        let layout = layout.clone();
        use_effect_with((scope.clone(), width), move |_| {
            view.set(Viewport::opening(&layout, width));
            follow.set(true);
            near.set(first_activity(&layout));
        });
    }
    ViewState { view, follow, near }
}

/// Where the run's activity begins (0 for a run where nothing happens).
fn first_activity(layout: &Layout) -> Option<u64> {
    Some(layout.activity().map_or(0, |(first, _)| first))
}
