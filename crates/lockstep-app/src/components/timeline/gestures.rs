//! Zooming and panning the timeline's plot with the wheel and by dragging it.

use super::view::ViewState;
use lockstep_view::layout::frame::Viewport;
use yew::prelude::*;

/// The plot's handlers.
pub struct Gestures {
    pub onwheel: Callback<WheelEvent>,
    pub onpointerdown: Callback<PointerEvent>,
    pub onpointermove: Callback<PointerEvent>,
    pub onpointerup: Callback<PointerEvent>,
}

/// Plain scrolling scrolls the page; with Ctrl (or a pinch on a touchpad) it zooms, with Shift
/// it pans. A drag of more than 4 px pans and stops following the present.
#[hook]
pub fn use_gestures(view: &ViewState, shown_view: Viewport, end: u64) -> Gestures {
    let drag = use_mut_ref(|| None::<(f64, Viewport)>);
    let onwheel = {
        let view = view.clone();
        let following = view.following();
        Callback::from(move |event: WheelEvent| {
            if event.ctrl_key() {
                event.prevent_default();
                let factor = if event.delta_y() < 0.0 { 1.25 } else { 0.8 };
                view.set(
                    shown_view.zoomed(factor, f64::from(event.offset_x()), end),
                    following,
                );
            } else if event.shift_key() {
                event.prevent_default();
                let by = (event.delta_y() + event.delta_x()) * shown_view.span / shown_view.width;
                view.set(shown_view.panned(by, end), false);
            }
        })
    };
    let onpointerdown = {
        let drag = drag.clone();
        Callback::from(move |event: PointerEvent| {
            if event.is_primary() && event.button() == 0 {
                *drag.borrow_mut() = Some((f64::from(event.client_x()), shown_view));
            }
        })
    };
    let onpointermove = {
        let drag = drag.clone();
        let view = view.clone();
        Callback::from(move |event: PointerEvent| {
            let Some((x0, from)) = *drag.borrow() else {
                return;
            };
            let dx = f64::from(event.client_x()) - x0;
            if dx.abs() > 4.0 {
                view.set(from.panned(-dx * from.span / from.width, end), false);
            }
        })
    };
    let onpointerup = Callback::from(move |_: PointerEvent| *drag.borrow_mut() = None);
    Gestures {
        onwheel,
        onpointerdown,
        onpointermove,
        onpointerup,
    }
}
