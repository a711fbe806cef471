//! The lessons: an index, and a player that walks one lesson step by step over a live scenario.
//!
//! Each step stands the playground just after one event of its scenario. A step that asks for a
//! prediction first stands just *before* that event, asks, and only then plays it and says why.
//! Back and Next (and ← →) move one step; the address names the lesson and step, so every step
//! can be linked to and Back never loses the place. "Now break it yourself" opens the sandbox at
//! exactly this moment. The player changes the run only by dispatching actions.

use crate::components::Shared;
use crate::components::sources::citation_list;
use crate::components::verification_tests::VerificationTests;
use crate::link;
use crate::platform::library;
use crate::state::{Action, Compare, Comparison, Moment, Origin, Playground};
use lockstep_sim::scenario::catalogue;
use lockstep_sim::scenario::types::Scenario;
use lockstep_view::content::{Content, Lesson};
use lockstep_view::route::Route;
use std::collections::BTreeMap;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LessonIndexProps {
    pub content: Shared<Content>,
}

#[component]
pub fn LessonIndex(props: &LessonIndexProps) -> Html {
    html! {
        <section class="page lessons-index" data-testid="lessons">
            <h2>{ "Lessons" }</h2>
            <p class="muted">{ "Each lesson walks a live scenario one event at a time. Before the decisive \
                moments it asks what you expect; then it shows you. From any step you can open the \
                sandbox at that moment and break it yourself." }</p>
            if let Some(first) = props.content.lessons.first() {
                <p>
                    <a class="control primary" data-testid="lesson-start" href={format!("#learn={}&step=1", first.id)}>
                        { format!("Start with \u{201c}{}\u{201d} ▶", first.title) }
                    </a>
                </p>
            }
            <ol class="lesson-list">
                { for props.content.lessons.iter().map(|lesson| html! {
                    <li>
                        <a href={format!("#learn={}&step=1", lesson.id)} data-testid="lesson-link" data-lesson={lesson.id.clone()}>
                            { lesson.title.clone() }
                        </a>
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

/// Where the player stands on a step that asks for a prediction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reveal {
    Asking,
    /// Shown, after the user chose this answer (`None`: they asked to be shown).
    Shown(Option<usize>),
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
    let content = &props.content;
    let lesson = content.lesson(&props.id);
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
    // Stand the playground where this step is: just after its event, or just before it while
    // the prediction is open.
    {
        let dispatch = props.dispatch.clone();
        let playground = props.playground.clone();
        let target = lesson.and_then(|l| {
            let step = l.steps.get(step_index)?;
            Some((
                l.scenario_of(step_index).to_owned(),
                step.event + usize::from(showing),
                step.compare.clone(),
            ))
        });
        use_effect_with(target, move |target| {
            if let Some((scenario_id, position, compare)) = target {
                let position = *position;
                // The content check has read every step's `compare`; a bad one is shown anyway.
                let compare = match compare.as_deref().map(link::compare_of).transpose() {
                    Ok(compare) => compare,
                    Err(e) => {
                        dispatch.emit(Action::Report(format!("This lesson step's {e}")));
                        None
                    }
                };
                match catalogue::entry(scenario_id) {
                    // Its file (and a twin scenario's) may have to load first: the page says so
                    // meanwhile.
                    Some(entry) => {
                        let twin = match compare {
                            Some(Compare::Scenario(twin)) => Some(twin),
                            _ => None,
                        };
                        library::with_built_in_and(entry.id, twin, dispatch, move |scenario| {
                            stand_at(&playground, entry.id, &scenario, position, compare)
                        })
                    }
                    None => dispatch.emit(Action::Report(format!(
                        "The lesson's scenario {scenario_id} is missing from this build."
                    ))),
                }
            }
        });
    }
    let Some(lesson) = lesson else {
        return html! {
            <section class="page" data-testid="lesson-missing">
                <h2>{ "No such lesson" }</h2>
                <p>{ format!("There is no lesson called \u{201c}{}\u{201d}.", props.id) }</p>
                <a href="#learn">{ "All lessons" }</a>
            </section>
        };
    };
    let total = lesson.steps.len();
    let step = &lesson.steps[step_index];
    let go = |index: usize| {
        let navigate = props.navigate.clone();
        let id = lesson.id.clone();
        Callback::from(move |_: MouseEvent| {
            navigate.emit(Route::Lesson {
                id: id.clone(),
                step: index,
            })
        })
    };
    let choose = |choice: Option<usize>| {
        let on_answer = props.on_answer.clone();
        let id = props.id.clone();
        Callback::from(move |_: MouseEvent| on_answer.emit(((id.clone(), step_index), choice)))
    };
    let break_it = {
        let navigate = props.navigate.clone();
        let dispatch = props.dispatch.clone();
        let hint = step.break_it.clone();
        Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::Inform(hint.clone().map_or_else(
                || "You are in the sandbox at the lesson's moment: select a lane or a message to act on it.".to_owned(),
                |hint| format!("Try this: {hint}"),
            )));
            navigate.emit(Route::Playground);
        })
    };
    let body = match (&step.predict, reveal, showing) {
        (Some(predict), Reveal::Asking, false) => html! {
            <fieldset class="predict" data-testid="predict">
                <legend>{ predict.question.clone() }</legend>
                <p class="muted">{ "Predict first: the next event plays once you have chosen." }</p>
                <div class="predict-choices">
                    { for predict.choices.iter().enumerate().map(|(i, c)| html! {
                        <button type="button" class="act" data-testid="predict-choice" data-index={i.to_string()}
                            onclick={choose(Some(i))}>{ c.text.clone() }</button>
                    }) }
                </div>
                <button type="button" class="link" data-testid="predict-skip" onclick={choose(None)}>{ "Just show me" }</button>
            </fieldset>
        },
        _ => {
            let verdict = match (&step.predict, reveal) {
                (Some(predict), Reveal::Shown(Some(chosen))) => {
                    let right = chosen == predict.answer;
                    Some(html! {
                        <p class={classes!("predict-result", if right { "right" } else { "wrong" })}
                            data-testid="predict-result" data-correct={right.to_string()}>
                            <strong>{ if right { "✓ Right. " } else { "✗ Not quite. " } }</strong>
                            { predict.why.clone() }
                        </p>
                    })
                }
                (Some(predict), Reveal::Shown(None)) => Some(html! {
                    <p class="predict-result" data-testid="predict-result" data-correct="skipped">
                        <strong>{ format!("The answer: {}. ", predict.choices.get(predict.answer).map_or("", |c| c.text.as_str())) }</strong>
                        { predict.why.clone() }
                    </p>
                }),
                _ => None,
            };
            html! {
                <>
                    <p class="step-text" data-testid="lesson-text" aria-live="polite">{ step.text.clone() }</p>
                    { for verdict }
                    { citation_list(&step.sources) }
                </>
            }
        }
    };
    html! {
        <section class="page lesson" data-testid="lesson" data-lesson={lesson.id.clone()}
            data-step={(step_index + 1).to_string()}>
            <p class="breadcrumbs"><a href="#learn">{ "Lessons" }</a>{ " › " }{ lesson.title.clone() }</p>
            <h2>{ lesson.title.clone() }</h2>
            <div class="lesson-progress" role="progressbar" aria-valuemin="1" aria-valuemax={total.to_string()}
                aria-valuenow={(step_index + 1).to_string()} aria-label="Lesson progress" data-testid="lesson-progress">
                <span>{ format!("Step {} of {total}", step_index + 1) }</span>
                <span class="bar"><span class="fill" style={format!("width: {}%", (step_index + 1) * 100 / total.max(1))}></span></span>
            </div>
            { body }
            <div class="lesson-buttons">
                <button type="button" class="control" data-testid="lesson-back" disabled={step_index == 0}
                    onclick={go(step_index.saturating_sub(1))}>{ "◀ Back" }</button>
                if step_index + 1 < total {
                    <button type="button" class="control primary" data-testid="lesson-next" disabled={!showing}
                        onclick={go(step_index + 1)}>{ "Next ▶" }</button>
                } else {
                    <a class="control primary" data-testid="lesson-done" href="#learn">{ "All lessons" }</a>
                }
                <button type="button" class="control" data-testid="break-it" onclick={break_it}>{ "Now break it yourself" }</button>
                // The lesson's scenario handed to the counterexample search, which picks the faults.
                if let Some(entry) = catalogue::entry(lesson.scenario_of(step_index)) {
                    <a class="control" data-testid="search-it" href={format!("#{}", lockstep_view::search_link::SearchSpec {
                        scenario: entry.id,
                        ..Default::default()
                    }.fragment())}>{ "Search for a counterexample" }</a>
                }
            </div>
            if let Some(hint) = &step.break_it {
                <p class="muted break-hint">{ format!("Try: {hint}") }</p>
            }
            if lesson.id == "verification" {
                <VerificationTests />
            }
        </section>
    }
}

/// The action that stands the playground at `position` of the built-in scenario `id` (its
/// `scenario`, loaded), comparing it with `compare` if the step says so: a seek if it already
/// shows that scenario untouched (and compared as asked), else a fresh open.
fn stand_at(
    playground: &Playground,
    id: &'static str,
    scenario: &Scenario,
    position: usize,
    compare: Option<Compare>,
) -> Action {
    let untouched = playground.origin() == &Origin::BuiltIn(id)
        && playground.scenario() == Some(scenario)
        && playground.seed() == scenario.seed
        && playground.log().is_empty()
        && compare.is_none_or(|c| c == playground.compare());
    // The twin scenario's file was loaded with this one (`library::with_built_in_and`).
    let comparison = match Comparison::of(compare.unwrap_or(Compare::Off), &library::loaded) {
        Ok(comparison) => comparison,
        Err(id) => {
            return Action::Report(format!("The scenario {id} is not loaded yet: try again."));
        }
    };
    if untouched {
        Action::SeekTo(position)
    } else {
        Action::Restore(Box::new(Moment {
            origin: Origin::BuiltIn(id),
            seed: scenario.seed,
            scenario: scenario.clone(),
            log: Vec::new(),
            position: Some(position),
            compare: comparison,
        }))
    }
}
