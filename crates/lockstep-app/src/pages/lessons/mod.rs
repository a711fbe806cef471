//! The lessons: an index, and a player that walks one lesson step by step over a live scenario.
//!
//! Each step stands the playground just after one event of its scenario. A step that asks for a
//! prediction first stands just *before* that event, asks, and only then plays it and says why.
//! Back and Next (and ← →) move one step; the address names the lesson and step, so every step
//! can be linked to and Back never loses the place. "Now break it yourself" opens the sandbox at
//! exactly this moment. The player changes the run only by dispatching actions.
//!
//! Its parts: `stand.rs` (where the playground stands for a step), `scene.rs` (the banner of a
//! step that changes scenario), `step_body.rs` (the question, or the verdict and the text),
//! `buttons.rs` (Back, Next, break it, search), `recap.rs` (the lesson's end: recap and what
//! next), `progress.rs` (the lessons finished, kept in local storage for the list's marks).

mod buttons;
mod progress;
mod recap;
mod scene;
mod stand;
mod step_body;
pub mod verification_tests;

use crate::components::Shared;
use crate::link::use_here;
use crate::pages::lessons::verification_tests::VerificationTests;
use crate::platform::browser;
use crate::state::{Action, Playground};
use buttons::LessonButtons;
use lockstep_view::content::{Content, Lesson};
use lockstep_view::link::route::Route;
use progress::{use_finished, use_keep_place, use_mark_finished};
use stand::use_stand_at;
pub(crate) use stand::{first_stand, scenarios_of_step};
use std::collections::BTreeMap;
use step_body::{Reveal, step_body};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LessonIndexProps {
    pub content: Shared<Content>,
}

#[component]
pub fn LessonIndex(props: &LessonIndexProps) -> Html {
    // Read once a visit to the list: the marks of lessons finished, here or before.
    let finished = use_finished();
    let here = use_here();
    html! {
        <section class="page lessons-index" data-testid="lessons">
            <h2>{ "Lessons" }</h2>
            <p class="muted">{ "Each lesson walks a live scenario one event at a time. Before the decisive \
                moments it asks what you expect; then it shows you. From any step you can open the \
                sandbox at that moment and break it yourself." }</p>
            if let Some(first) = props.content.lessons.first() {
                <p>
                    <a class="control primary" data-testid="lesson-start" href={here.href(&format!("learn={}&step=1", first.id))}>
                        { format!("Start with \u{201c}{}\u{201d} ▶", first.title) }
                    </a>
                </p>
            }
            <ol class="lesson-list">
                { for props.content.lessons.iter().map(|lesson| html! {
                    <li>
                        <a href={here.href(&format!("learn={}&step=1", lesson.id))} data-testid="lesson-link" data-lesson={lesson.id.clone()}>
                            { lesson.title.clone() }
                        </a>
                        if finished.contains(&lesson.id) {
                            <span class="lesson-finished" data-testid="lesson-finished" aria-label="done">{ " ✓ done" }</span>
                        }
                        <span class="muted">{ format!(" · {} steps · ", lesson.steps.len()) }{ lesson.summary.clone() }</span>
                    </li>
                }) }
            </ol>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct LessonPlayerProps {
    pub content: Shared<Content>,
    pub id: AttrValue,
    pub step: usize,
    pub playground: UseReducerHandle<Playground>,
    pub dispatch: Callback<Action>,
    pub navigate: Callback<Route>,
    /// The predictions answered so far in this visit (kept by the app, whose arrow keys must
    /// not skip an open question either).
    pub answered: Answered,
    pub on_answer: Callback<Answer>,
}

/// The predictions answered so far, by lesson and step, with the choice (`None`: "just show
/// me"): going back to a step shows it as it was left, answered.
pub type Answered = BTreeMap<(AttrValue, usize), Option<usize>>;

/// One prediction answered: the lesson and step, and the choice.
pub type Answer = ((AttrValue, usize), Option<usize>);

/// The predictions answered in this visit, and the callback that records one: the site and a
/// lesson's embed keep them alike.
#[hook]
pub fn use_answers() -> (UseStateHandle<Answered>, Callback<Answer>) {
    let answered = use_state(Answered::new);
    let on_answer = {
        let answered = answered.clone();
        Callback::from(move |(key, choice)| {
            let mut next = (*answered).clone();
            next.insert(key, choice);
            answered.set(next);
        })
    };
    (answered, on_answer)
}

/// Whether step `step` of `lesson` still waits for a prediction.
pub fn asking(lesson: &Lesson, step: usize, answered: &Answered) -> bool {
    lesson.steps.get(step).is_some_and(|s| s.predict.is_some())
        && !answered.contains_key(&(AttrValue::from(lesson.id.clone()), step))
}

#[component]
pub fn LessonPlayer(props: &LessonPlayerProps) -> Html {
    let lesson = props.content.lesson(&props.id);
    let step_index = lesson.map_or(0, |l| props.step.min(l.steps.len().saturating_sub(1)));
    let asks = lesson
        .and_then(|l| l.steps.get(step_index))
        .is_some_and(|s| s.predict.is_some());
    // A step asks until it is answered; an answered step stays answered.
    let reveal = props
        .answered
        .get(&(props.id.clone(), step_index))
        .map_or(Reveal::Asking, |choice| Reveal::Shown(*choice));
    let showing = !asks || reveal != Reveal::Asking;
    let on_last_step = lesson.is_some_and(|l| step_index + 1 == l.steps.len());
    let here = use_here();
    use_mark_finished(props.id.clone(), on_last_step);
    use_keep_place(&props.content, props.id.clone(), step_index);
    // Answering removes the choice that had the keyboard's focus: give it to the verdict, or
    // the next Tab would start again from the top of the page. Then, as answering may leave the
    // timeline scrolled away above (on a phone the question sits under it), bring its top back,
    // so the effect and the verdict share the screen.
    use_effect_with(reveal, |reveal| {
        if *reveal != Reveal::Asking {
            browser::focus_if_lost("[data-testid=\"predict-verdict\"]");
            browser::reveal_top("[data-testid=\"timeline-main\"]");
        }
    });
    use_stand_at(
        lesson,
        step_index,
        showing,
        &props.playground,
        &props.dispatch,
    );
    let Some(lesson) = lesson else {
        return html! {
            <section class="page" data-testid="lesson-missing">
                <h2>{ "No such lesson" }</h2>
                <p>{ format!("There is no lesson called \u{201c}{}\u{201d}.", props.id) }</p>
                <a href={here.href("learn")}>{ "All lessons" }</a>
            </section>
        };
    };
    let total = lesson.steps.len();
    let step = &lesson.steps[step_index];
    let choose = |choice: Option<usize>| {
        let on_answer = props.on_answer.clone();
        let id = props.id.clone();
        Callback::from(move |()| on_answer.emit(((id.clone(), step_index), choice)))
    };
    html! {
        <section class="page lesson" data-testid="lesson" data-lesson={lesson.id.clone()}
            data-step={(step_index + 1).to_string()}>
            <p class="breadcrumbs"><a href={here.href("learn")}>{ "Lessons" }</a>{ " › " }{ lesson.title.clone() }</p>
            <h2>{ lesson.title.clone() }</h2>
            <div class="lesson-progress" role="progressbar" aria-valuemin="1" aria-valuemax={total.to_string()}
                aria-valuenow={(step_index + 1).to_string()} aria-label="Lesson progress" data-testid="lesson-progress">
                <span>{ format!("Step {} of {total}", step_index + 1) }</span>
                <span class="bar"><span class="fill" style={format!("width: {}%", (step_index + 1) * 100 / total.max(1))}></span></span>
            </div>
            { for scene::scene_banner(lesson, step_index) }
            { step_body(step, reveal, showing, &choose, &here) }
            <LessonButtons lesson={lesson.id.clone()} {step_index} {total} {showing}
                scenario={lesson.scenario_of(step_index).to_owned()} hint={step.break_it.clone()}
                dispatch={props.dispatch.clone()} navigate={props.navigate.clone()} />
            if let Some(hint) = &step.break_it {
                <p class="muted break-hint">{ format!("Try: {hint}") }</p>
            }
            if lesson.id == "verification" {
                <VerificationTests />
            }
            if on_last_step && showing {
                { recap::recap(&props.content, lesson, &here) }
            }
        </section>
    }
}
