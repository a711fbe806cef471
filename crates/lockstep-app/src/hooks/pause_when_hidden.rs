//! Pausing autoplay when the tab is hidden.

use crate::state::Action;
use gloo_events::EventListener;
use yew::prelude::*;

/// Pauses autoplay when the tab is hidden: nobody is watching.
#[hook]
pub fn use_pause_when_hidden(dispatch: Callback<Action>) {
    use_effect_with((), move |_| {
        let listener = crate::platform::browser::window()
            .and_then(|w| w.document())
            .map(|document| {
                let target = document.clone();
                EventListener::new(&target, "visibilitychange", move |_| {
                    if document.hidden() {
                        dispatch.emit(Action::Pause);
                    }
                })
            });
        move || drop(listener)
    });
}
