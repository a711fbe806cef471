//! Which lessons the user has finished (reached their last step), kept in the browser's local
//! storage (`lockstep-lessons-done-1`) so the lessons' list can mark them across visits.

use crate::platform::browser;
use std::collections::BTreeSet;
use yew::prelude::*;

const STORAGE_KEY: &str = "lockstep-lessons-done-1";

/// The ids of the lessons finished so far (none if storage is empty, refused or unreadable).
fn finished() -> BTreeSet<String> {
    browser::stored(STORAGE_KEY)
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// The lessons finished, here or before: none at first, then what storage keeps, read in an
/// effect. The build's render (issue 41) has no storage, and the wasm's first render must match
/// it, so the list's marks show just after the page starts.
#[hook]
pub fn use_finished() -> UseStateHandle<BTreeSet<String>> {
    let done = use_state(BTreeSet::new);
    {
        let done = done.clone();
        use_effect_with((), move |_| done.set(finished()));
    }
    done
}

/// Marks lesson `id` finished once the player stands on its last step.
#[hook]
pub fn use_mark_finished(id: AttrValue, on_last_step: bool) {
    use_effect_with((id, on_last_step), |(id, on_last_step)| {
        if *on_last_step {
            let mut done = finished();
            if done.insert(id.to_string()) {
                browser::store(
                    STORAGE_KEY,
                    &serde_json::to_string(&done).unwrap_or_default(),
                );
            }
        }
    });
}
