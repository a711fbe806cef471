//! Which lessons the user has finished (reached their last step), kept in the browser's local
//! storage (`lockstep-lessons-done-1`) so the lessons' list can mark them across visits; and
//! where to begin next time (`crate::pages::welcome_back`), kept as each step is shown.

use crate::pages::welcome_back::{self, Place, StepNumber};
use crate::platform::browser;
use lockstep_view::content::Content;
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

/// Keeps where a returning visitor should begin, as step `step_index` of lesson `id` shows:
/// that step, or once on the last step the next lesson's first (nowhere after the last lesson).
#[hook]
pub fn use_keep_place(content: &Content, id: AttrValue, step_index: usize) {
    let lesson = content.lesson(&id);
    let on_last_step = lesson.is_some_and(|l| step_index + 1 >= l.steps.len());
    let place = match (lesson, on_last_step) {
        (None, _) => None,
        (Some(lesson), false) => Some(Place {
            lesson: lesson.id.clone(),
            title: lesson.title.clone(),
            step: StepNumber(step_index + 1),
        }),
        (Some(lesson), true) => content.next_lesson(&lesson.id).map(|next| Place {
            lesson: next.id.clone(),
            title: next.title.clone(),
            step: StepNumber(1),
        }),
    };
    let known = lesson.is_some();
    use_effect_with(place, move |place| {
        if known {
            welcome_back::keep(place.as_ref());
        }
    });
}
