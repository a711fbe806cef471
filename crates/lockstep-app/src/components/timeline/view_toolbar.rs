//! The timeline's own toolbar: its caption, zoom, pan, the whole run, "Follow now", and the
//! span in view. It changes only the view, never the run.

use super::view::ViewState;
use lockstep_view::layout::frame::{Viewport, time_label};
use yew::prelude::*;

/// The toolbar over a timeline captioned `caption` that shows `shown_view` of a run ending at
/// `end`; `simplified` says the frame is an overview.
pub fn view_toolbar(
    caption: &AttrValue,
    view: &ViewState,
    shown_view: Viewport,
    end: u64,
    simplified: bool,
) -> Html {
    let zoom = |factor: f64| {
        let view = view.clone();
        let following = view.following();
        Callback::from(move |_: MouseEvent| {
            view.set(
                shown_view.zoomed(factor, shown_view.width / 2.0, end),
                following,
            )
        })
    };
    let fit = {
        let view = view.clone();
        Callback::from(move |_: MouseEvent| view.set(Viewport::whole(end, shown_view.width), true))
    };
    let pan = |fraction: f64| {
        let view = view.clone();
        Callback::from(move |_: MouseEvent| {
            view.set(shown_view.panned(shown_view.span * fraction, end), false)
        })
    };
    let toggle_follow = {
        let view = view.clone();
        Callback::from(move |_: MouseEvent| view.toggle_follow(shown_view))
    };
    html! {
        <div class="timeline-toolbar" role="toolbar" aria-label={format!("{caption} view")}>
            <span class="timeline-caption">{ caption.clone() }</span>
            <button type="button" class="tool" data-testid="zoom-in" onclick={zoom(2.0)} aria-label="Zoom in">{ "+" }</button>
            <button type="button" class="tool" data-testid="zoom-out" onclick={zoom(0.5)} aria-label="Zoom out">{ "−" }</button>
            <button type="button" class="tool" data-testid="pan-left" onclick={pan(-0.25)} aria-label="Earlier">{ "◀" }</button>
            <button type="button" class="tool" data-testid="pan-right" onclick={pan(0.25)} aria-label="Later">{ "▶" }</button>
            <button type="button" class="tool" data-testid="zoom-fit" onclick={fit}>{ "Whole run" }</button>
            <button type="button" class="tool follow-toggle" data-testid="follow" aria-pressed={view.following().to_string()} onclick={toggle_follow}
                title="Keep the present in view while the run moves">
                { "Follow now" }
            </button>
            if simplified {
                <span class="overview-hint" data-testid="overview-hint">{ "Overview: zoom in to see every message and token" }</span>
            }
            <span class="view-range" data-testid="view-range">
                { format!("{} – {}", time_label(shown_view.start.max(0.0) as u64),
                    time_label(((shown_view.start + shown_view.span) as u64).min(end))) }
            </span>
        </div>
    }
}
