//! The end of a lesson, under its last step: what it showed (the content's recap) and where to
//! go next — the next lesson in order, or after the last one the knowledge check and the deck.

use crate::link::Here;
use lockstep_view::content::{Content, Lesson};
use yew::prelude::*;

/// The recap of `lesson`, its links written from `here`.
pub fn recap(content: &Content, lesson: &Lesson, here: &Here) -> Html {
    let next = match content.next_lesson(&lesson.id) {
        Some(next) => html! {
            <a class="control primary" data-testid="next-lesson" data-lesson={next.id.clone()}
                href={here.href(&format!("learn={}&step=1", next.id))}>
                { format!("Next lesson: {} →", next.title) }
            </a>
        },
        None => html! {
            <>
                <a class="control primary" data-testid="next-lesson" href={here.href("quiz")}>{ "Test yourself: the knowledge check →" }</a>
                <a class="control" href={here.href("deck")}>{ "Practise with the interview deck" }</a>
            </>
        },
    };
    html! {
        <section class="lesson-recap" data-testid="lesson-recap" aria-labelledby="recap-heading">
            <h3 id="recap-heading">{ "What this lesson showed" }</h3>
            <ul>{ for lesson.recap.iter().map(|point| html! { <li>{ point.clone() }</li> }) }</ul>
            <p class="recap-next">{ next }</p>
        </section>
    }
}
