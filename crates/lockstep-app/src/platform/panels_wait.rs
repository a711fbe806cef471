//! When the panels below the story (the inspector, the monitoring plots, the event log) draw the
//! moment the story shows, and when they keep the one they have.
//!
//! They wait while the scrubber is dragged, and while they are out of sight: at 1280×800 they
//! start just above the transport bar, which covers them, and drawing them anew on every Step
//! cost a Step a fifth of its time for panels nobody could see. Out of sight, they catch up once
//! the story rests ([`REST_MS`] without a new moment), or at once when they come into view.
//! While they wait the page marks them busy (`aria-busy`), so assistive technology knows they
//! are behind. This decides only *when*; what the panels show is theirs.

use gloo_timers::callback::Timeout;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{Element, IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit};
use yew::prelude::*;

/// How long, in ms, the story must rest before panels out of sight catch up: the scrubber's rest
/// (`controls::DRAG_REST_MS`), so that a drag and a run of Steps wait alike.
pub const REST_MS: u32 = crate::components::controls::DRAG_REST_MS;

/// The lowest part of the window that does not count as in view: the transport bar sits there
/// over the page (one or two rows, 12–20 % of the window's height on a laptop or a phone).
const COVERED_BY_TRANSPORT: &str = "0px 0px -25% 0px";

/// Whether an element can be seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sight {
    InView,
    OutOfView,
}

/// Whether the panels keep the moment they show ([`Wait::Waiting`]) or draw the current one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    Drawing,
    Waiting,
}

/// Whether `target` is in the window, above the part the transport bar covers. `watching` is
/// false while the element is not on the page (another route), and a new element is watched
/// when it turns true again. In view until the browser says otherwise: a page whose observer
/// never reports keeps its panels current.
#[hook]
pub fn use_sight(target: NodeRef, watching: bool) -> Sight {
    let sight = use_state_eq(|| Sight::InView);
    {
        let sight = sight.clone();
        use_effect_with(watching, move |watching| {
            let observer = watching
                .then(|| target.cast::<Element>())
                .flatten()
                .and_then(|element| observe(&element, sight));
            move || {
                if let Some((observer, _callback)) = observer {
                    observer.disconnect();
                }
            }
        });
    }
    *sight
}

type Entries = Closure<dyn FnMut(js_sys::Array)>;

fn observe(
    element: &Element,
    sight: UseStateHandle<Sight>,
) -> Option<(IntersectionObserver, Entries)> {
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        // Entries come oldest first; the last says where the element is now.
        let last = entries
            .iter()
            .filter_map(|entry| entry.dyn_into::<IntersectionObserverEntry>().ok())
            .next_back();
        if let Some(entry) = last {
            sight.set(if entry.is_intersecting() {
                Sight::InView
            } else {
                Sight::OutOfView
            });
        }
    });
    let options = IntersectionObserverInit::new();
    options.set_root_margin(COVERED_BY_TRANSPORT);
    let observer =
        IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &options).ok()?;
    observer.observe(element);
    Some((observer, callback))
}

/// Whether the panels wait, and the run and moment they are to show, given the run and the
/// moment the story shows (each equal only to itself, such as the `Shared` handles of the run
/// and of the simulation at the position), whether the scrubber is being dragged, and whether
/// the panels are in sight. Out of sight, a new moment of the same run makes them wait at once
/// (that Step's render skips them) and a timer catches them up when the story has rested;
/// another run (a scenario opened, an intervention) is drawn at once, so the panels never show
/// a run that is gone.
#[hook]
pub fn use_panels_wait<R, M>(run: R, moment: M, dragging: bool, sight: Sight) -> (Wait, (R, M))
where
    R: PartialEq + Clone + 'static,
    M: PartialEq + Clone + 'static,
{
    let moment = (run, moment);
    let drawn = use_mut_ref(|| moment.clone());
    let rest = use_mut_ref(|| None::<Timeout>);
    let catch_up = use_force_update();
    let (same_run, behind) = {
        let drawn = drawn.borrow();
        (drawn.0 == moment.0, drawn.1 != moment.1)
    };
    let wait = if dragging || (sight == Sight::OutOfView && same_run && behind) {
        Wait::Waiting
    } else {
        Wait::Drawing
    };
    match wait {
        Wait::Drawing => {
            *drawn.borrow_mut() = moment;
            rest.borrow_mut().take();
        }
        // A drag has its own rest (the scrubber's); out of sight, every new moment starts the
        // rest again, and when it ends the panels draw whatever the story shows then.
        Wait::Waiting if !dragging => {
            let drawn = drawn.clone();
            *rest.borrow_mut() = Some(Timeout::new(REST_MS, move || {
                *drawn.borrow_mut() = moment;
                catch_up.force_update();
            }));
        }
        Wait::Waiting => {}
    }
    let drawn = drawn.borrow().clone();
    (wait, drawn)
}
