//! A way back in for a returning visitor: where they left the lessons (the step they last
//! stood on, or the lesson after the one they finished), kept in the browser's local storage
//! (`lockstep-lesson-place-1`), and the card their landing shows to resume there. The lessons
//! write the place; the landing reads it in an effect, never while rendering: the build's render
//! (decision 43) has no storage, and the wasm's first render must match it. This must not
//! decide anything about the guided start, which a first visit gets instead.

use crate::link::Here;
use crate::platform::browser;
use serde::{Deserialize, Serialize};
use yew::prelude::*;

const STORAGE_KEY: &str = "lockstep-lesson-place-1";

/// A step of a lesson, from 1, and the lesson's title to name it by.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    pub lesson: String,
    pub title: String,
    pub step: StepNumber,
}

/// A lesson's step counted from 1, as the page and its address say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepNumber(pub usize);

/// Keeps `place` as where to begin next time; `None` (every lesson done) forgets any. Only the
/// lessons write it, and they are in the full app alone (decision 33).
#[cfg(feature = "full")]
pub fn keep(place: Option<&Place>) {
    browser::store(
        STORAGE_KEY,
        &serde_json::to_string(&place).unwrap_or_default(),
    );
}

fn kept() -> Option<Place> {
    browser::stored(STORAGE_KEY).and_then(|text| serde_json::from_str(&text).ok().flatten())
}

/// The card for a visit that landed on the site's root (`address` empty), if the lessons left
/// a place to begin: nothing in the first render, then what storage keeps.
#[hook]
pub fn use_welcome_back(address: &str, here: &Here) -> Option<Html> {
    let place = use_state(|| None::<Place>);
    {
        let (place, landing) = (place.clone(), address.is_empty());
        use_effect_with((), move |_| {
            if landing {
                place.set(kept());
            }
        });
    }
    let place = (*place).clone()?;
    let (words, action) = if place.step == StepNumber(1) {
        (format!("Next: \u{201c}{}\u{201d}.", place.title), "Begin ▶")
    } else {
        (
            format!(
                "You were at step {} of \u{201c}{}\u{201d}.",
                place.step.0, place.title
            ),
            "Resume ▶",
        )
    };
    let href = here.href(&format!("learn={}&step={}", place.lesson, place.step.0));
    Some(html! {
        <section class="welcome-back" data-testid="welcome-back" aria-label="Where to begin">
            <p>
                <span>{ "Welcome back. " }{ words }</span>
                <a class="control primary" data-testid="welcome-resume" data-lesson={place.lesson.clone()}
                    data-step={place.step.0.to_string()} {href}>{ action }</a>
            </p>
        </section>
    })
}
