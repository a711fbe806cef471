//! The embed's effects: telling the host page its height as it changes, and playing only while
//! someone can watch — autoplay starts on load (never under `prefers-reduced-motion: reduce`),
//! pauses when the embed leaves the viewport or its tab is hidden, and resumes when it is back
//! if it was autoplay that had been playing. Each owns its observer or listener and drops it on
//! cleanup; each only dispatches actions, and marks on `<html>` what it has settled on (the
//! height it last told, whether it is watched, what autoplay did: `docs/test-hooks.md`), so a
//! test waits for the embed to have decided instead of waiting for time to pass.

use crate::embed::frame::{self as embed_frame, Observer};
use crate::platform::browser;
use crate::state::{Action, Play};
use gloo_events::EventListener;
use lockstep_view::link::embed::Autoplay;
use std::cell::Cell;
use std::rc::Rc;
use yew::prelude::*;

/// Posts the height of `root` to the host page whenever it changes, and once at the start.
#[hook]
pub fn use_embed_size(root: NodeRef) {
    use_effect_with((), move |_| {
        let observer = root.cast::<web_sys::Element>().and_then(|element| {
            let last = Cell::new(None);
            let measured = element.clone();
            let announce = move || {
                let height = embed_frame::height_of(&measured);
                if last.replace(Some(height)) != Some(height) {
                    embed_frame::announce_height(height);
                    browser::mark("embed-height", &height.to_string());
                }
            };
            match embed_frame::observe_size(&element, announce.clone()) {
                Some(observer) => Some(observer),
                None => {
                    // No ResizeObserver: the host gets the first height at least.
                    announce();
                    None
                }
            }
        });
        move || drop(observer)
    });
}

/// Why the embed is not being watched, if it is not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Watched {
    in_view: bool,
    tab_visible: bool,
}

impl Watched {
    fn yes(self) -> bool {
        self.in_view && self.tab_visible
    }

    /// Says on `<html data-embed-watched>` whether someone can watch, once what it did about
    /// that (pausing, resuming) is dispatched.
    fn mark(self) {
        browser::mark("embed-watched", if self.yes() { "true" } else { "false" });
    }
}

/// What autoplay did once the run was ready, for `<html data-embed-autoplay>`: `off` (not
/// asked), `started`, or `declined` (asked, but the visitor prefers reduced motion).
fn autoplay_word(asked: bool, reduced_motion: bool) -> &'static str {
    match (asked, reduced_motion) {
        (false, _) => "off",
        (true, false) => "started",
        (true, true) => "declined",
    }
}

/// Plays on load when `autoplay` asks (and the visitor does not prefer reduced motion); pauses
/// whenever nobody can watch; resumes an autoplay it paused. `ready` is when there is a run to
/// play; `play` the playground's state now.
#[hook]
pub fn use_watched_play(
    root: NodeRef,
    autoplay: Autoplay,
    ready: bool,
    play: Play,
    dispatch: Callback<Action>,
) {
    let asked = autoplay == Autoplay::On;
    // The visitor's wish for reduced motion is read in the effects, never in the render: the
    // build's render (issue 41) has no window to ask.
    // Whether a pause for being out of sight interrupted a play that should go on.
    let interrupted = use_mut_ref(|| false);
    let playing = use_mut_ref(|| Play::Paused);
    *playing.borrow_mut() = play;
    {
        let dispatch = dispatch.clone();
        use_effect_with(ready, move |ready| {
            if *ready {
                let reduced_motion = embed_frame::prefers_reduced_motion();
                if asked && !reduced_motion {
                    dispatch.emit(Action::Play);
                }
                browser::mark("embed-autoplay", autoplay_word(asked, reduced_motion));
            }
        });
    }
    use_effect_with(ready, move |ready| {
        let autoplay = asked && !embed_frame::prefers_reduced_motion();
        let watching = Rc::new(Cell::new(Watched {
            in_view: true,
            tab_visible: true,
        }));
        let changed = {
            let watching = Rc::clone(&watching);
            Rc::new(move |next: Watched| {
                let was = watching.replace(next).yes();
                match (was, next.yes()) {
                    (true, false) if *playing.borrow() == Play::Playing => {
                        *interrupted.borrow_mut() = autoplay;
                        dispatch.emit(Action::Pause);
                    }
                    (false, true) if *interrupted.borrow() => {
                        *interrupted.borrow_mut() = false;
                        dispatch.emit(Action::Play);
                    }
                    _ => {}
                }
                next.mark();
            })
        };
        let mut kept: (Option<Observer>, Option<EventListener>) = (None, None);
        if *ready {
            watching.get().mark();
            let element = root.cast::<web_sys::Element>();
            kept.0 = element.and_then(|element| {
                let changed = Rc::clone(&changed);
                let watching = Rc::clone(&watching);
                embed_frame::observe_view(&element, move |in_view| {
                    changed(Watched {
                        in_view,
                        ..watching.get()
                    })
                })
            });
            kept.1 = crate::platform::browser::window()
                .and_then(|w| w.document())
                .map(|document| {
                    let target = document.clone();
                    EventListener::new(&target, "visibilitychange", move |_| {
                        changed(Watched {
                            tab_visible: !document.hidden(),
                            ..watching.get()
                        })
                    })
                });
        }
        move || drop(kept)
    });
}
