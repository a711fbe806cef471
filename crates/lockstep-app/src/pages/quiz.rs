//! The knowledge check: one question at a time, the explanation and the moment of a run that
//! shows the answer after each ("See it": the playground just after the question's `moment`), a
//! score, a review of the wrong answers. The question shown is in the address (`#quiz=7`), so
//! Back from "See it" returns to it. Answers are kept in the browser's local storage
//! (`lockstep-quiz-1`), so progress survives a reload; "Start again" clears it. They are read
//! in an effect: the build's render (issue 41) has no storage, and the wasm's first render must
//! match it, so a returning user's answers show just after the page starts.
//! A link past the last question shows the link's banner and the list of the questions instead.

use crate::components::Shared;
use crate::components::link_problem::link_problem;
use crate::link::{Here, use_here};
use crate::pages::sources::citation_list;
use lockstep_view::content::{Content, Question};
use lockstep_view::link::route::Route;
use std::collections::BTreeMap;
use yew::prelude::*;

const STORAGE_KEY: &str = "lockstep-quiz-1";

#[derive(Properties, PartialEq)]
pub struct QuizProps {
    pub content: Shared<Content>,
    /// The question the address names (an index into all the questions).
    pub question: usize,
    pub navigate: Callback<Route>,
}

/// The user's answers by question id.
type Answers = BTreeMap<String, usize>;

fn load() -> Answers {
    crate::platform::browser::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

fn save(answers: &Answers) {
    if let Some(storage) =
        crate::platform::browser::window().and_then(|w| w.local_storage().ok().flatten())
    {
        let _ = storage.set_item(
            STORAGE_KEY,
            &serde_json::to_string(answers).unwrap_or_default(),
        );
    }
}

/// How an answered question marks one choice, in a word and a glyph as well as a colour and a
/// border (the colour alone would leave out anyone who cannot tell green from orange).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ChoiceMark {
    /// The user chose it, and it is the answer.
    ChosenRight,
    /// The user chose it, and it is not the answer.
    ChosenWrong,
    /// The answer, shown after the user chose another.
    Revealed,
}

impl ChoiceMark {
    /// The mark of choice `index`, once the user has `chosen` (nothing before they have).
    fn of(index: usize, chosen: Option<usize>, answer: usize) -> Option<ChoiceMark> {
        let chosen = chosen?;
        match (index == chosen, index == answer) {
            (true, true) => Some(ChoiceMark::ChosenRight),
            (true, false) => Some(ChoiceMark::ChosenWrong),
            (false, true) => Some(ChoiceMark::Revealed),
            (false, false) => None,
        }
    }

    fn glyph(self) -> &'static str {
        match self {
            ChoiceMark::ChosenRight | ChoiceMark::Revealed => "✓ ",
            ChoiceMark::ChosenWrong => "✗ ",
        }
    }

    /// Part of the button's accessible name, so a screen reader hears the verdict too.
    fn words(self) -> &'static str {
        match self {
            ChoiceMark::ChosenRight => "Right, your answer:",
            ChoiceMark::ChosenWrong => "Not this one, your answer:",
            ChoiceMark::Revealed => "The right answer:",
        }
    }

    /// What the page calls it (`data-mark`), for the tests.
    fn name(self) -> &'static str {
        match self {
            ChoiceMark::ChosenRight => "chosen-right",
            ChoiceMark::ChosenWrong => "chosen-wrong",
            ChoiceMark::Revealed => "revealed",
        }
    }

    /// The class that gives it its border and shape.
    fn class(self) -> &'static str {
        match self {
            ChoiceMark::ChosenRight | ChoiceMark::Revealed => "right",
            ChoiceMark::ChosenWrong => "wrong",
        }
    }
}

#[component]
pub fn Quiz(props: &QuizProps) -> Html {
    let answers = use_state(Answers::new);
    {
        let answers = answers.clone();
        use_effect_with((), move |_| answers.set(load()));
    }
    let reviewing = use_state(|| false);
    let here = use_here();
    let questions = &props.content.questions;
    let right = questions
        .iter()
        .filter(|q| answers.get(&q.id) == Some(&q.answer))
        .count();
    // In review, only the questions answered wrongly, by their place among all the questions.
    let shown: Vec<usize> = (0..questions.len())
        .filter(|&i| {
            let q = &questions[i];
            !*reviewing || answers.get(&q.id).is_some_and(|a| *a != q.answer)
        })
        .collect();
    let index = shown.iter().position(|&i| i == props.question).unwrap_or(0);
    let card = shown
        .get(index)
        .map(|&i| question_card(&questions[i], &answers, &here));
    // Review opens at the first question answered wrongly.
    let first_wrong = questions
        .iter()
        .position(|q| answers.get(&q.id).is_some_and(|a| *a != q.answer))
        .unwrap_or(0);
    if props.question >= questions.len() {
        return no_such_question(props.question, questions, &here);
    }
    html! {
        <section class="page quiz" data-testid="quiz">
            <h2>{ "Knowledge check" }</h2>
            <p class="score" data-testid="score" data-right={right.to_string()} data-answered={answers.len().to_string()}>
                { format!("{right} right of {} answered · {} questions", answers.len(), questions.len()) }
            </p>
            if *reviewing && shown.is_empty() {
                <p data-testid="no-wrong">{ "No wrong answers to review." }</p>
            }
            { for card }
            { quiz_buttons(index, &shown, first_wrong, &props.navigate, &reviewing, &answers) }
        </section>
    }
}

/// A link to a question past the last: the link's banner and the list of the questions there
/// are, each a link to its own place.
fn no_such_question(question: usize, questions: &[Question], here: &Here) -> Html {
    let text = format!(
        "This link names question {}, but the knowledge check has {} questions (`quiz={}`). \
         These are the questions there are.",
        question + 1,
        questions.len(),
        question + 1
    );
    html! {
        <section class="page quiz" data-testid="quiz-missing">
            { link_problem(&text, None) }
            <h2>{ "Knowledge check" }</h2>
            <ol class="question-list">
                { for questions.iter().enumerate().map(|(i, q)| html! {
                    <li><a href={here.href(&format!("quiz={}", i + 1))} data-testid="question-link">{ q.question.clone() }</a></li>
                }) }
            </ol>
        </section>
    }
}

/// Previous, where we are, Next, the review of wrong answers, and "Start again". Moving writes
/// the question into the address.
fn quiz_buttons(
    index: usize,
    shown: &[usize],
    first_wrong: usize,
    navigate: &Callback<Route>,
    reviewing: &UseStateHandle<bool>,
    answers: &UseStateHandle<Answers>,
) -> Html {
    let go = |to: usize| {
        let navigate = navigate.clone();
        let question = shown.get(to).copied().unwrap_or(0);
        Callback::from(move |_: MouseEvent| navigate.emit(Route::Quiz { question }))
    };
    let toggle_review = {
        let reviewing = reviewing.clone();
        let navigate = navigate.clone();
        Callback::from(move |_: MouseEvent| {
            reviewing.set(!*reviewing);
            let question = if *reviewing { 0 } else { first_wrong };
            navigate.emit(Route::Quiz { question });
        })
    };
    let reset = {
        let answers = answers.clone();
        let reviewing = reviewing.clone();
        let navigate = navigate.clone();
        Callback::from(move |_: MouseEvent| {
            let empty = Answers::new();
            save(&empty);
            answers.set(empty);
            reviewing.set(false);
            navigate.emit(Route::Quiz { question: 0 });
        })
    };
    let total = shown.len();
    html! {
        <div class="lesson-buttons">
            <button type="button" class="control" data-testid="question-back" disabled={index == 0}
                onclick={go(index.saturating_sub(1))}>{ "◀ Previous" }</button>
            <span class="muted" data-testid="question-place">{ format!("{} of {}", (index + 1).min(total), total) }</span>
            <button type="button" class="control primary" data-testid="question-next" disabled={index + 1 >= total}
                onclick={go(index + 1)}>{ "Next ▶" }</button>
            <button type="button" class="control" data-testid="review" aria-pressed={reviewing.to_string()}
                onclick={toggle_review}>{ "Review wrong answers" }</button>
            <button type="button" class="control" data-testid="quiz-reset" onclick={reset}>{ "Start again" }</button>
        </div>
    }
}

/// One question, its choices (marked once answered) and, once answered, the explanation (its
/// links written from `here`).
fn question_card(q: &Question, answers: &UseStateHandle<Answers>, here: &Here) -> Html {
    let chosen = answers.get(&q.id).copied();
    let choose = |i: usize| {
        let answers = answers.clone();
        let id = q.id.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (*answers).clone();
            next.insert(id.clone(), i);
            save(&next);
            answers.set(next);
        })
    };
    html! {
        <article class="card question" data-testid="question" data-question={q.id.clone()}>
            <h3>{ q.question.clone() }</h3>
            <ol class="choices" type="A">
                { for q.choices.iter().enumerate().map(|(i, text)| {
                    let mark = ChoiceMark::of(i, chosen, q.answer);
                    html! {
                        <li>
                            <button type="button" class={classes!("act", "choice", mark.map(ChoiceMark::class))}
                                data-testid="choice" data-index={i.to_string()} data-mark={mark.map(ChoiceMark::name)}
                                aria-pressed={(chosen == Some(i)).to_string()} onclick={choose(i)}>
                                if let Some(mark) = mark {
                                    <span class="choice-mark" data-testid="choice-mark">
                                        <span aria-hidden="true">{ mark.glyph() }</span>
                                        { mark.words() }
                                    </span>
                                }
                                <span class="choice-text">{ text.clone() }</span>
                            </button>
                        </li>
                    }
                }) }
            </ol>
            if let Some(c) = chosen {
                { explanation(q, c, here) }
            }
        </article>
    }
}

/// Right or not, why, the sources, and where to see it happen.
fn explanation(q: &Question, chosen: usize, here: &Here) -> Html {
    html! {
        <div class="explanation" data-testid="explanation" data-correct={(chosen == q.answer).to_string()} aria-live="polite">
            <p><strong>{ if chosen == q.answer { "✓ Right. " } else { "✗ Not quite. " } }</strong>{ q.explanation.clone() }</p>
            { citation_list(&q.sources) }
            <p>
                if let Some(scenario) = &q.scenario {
                    // Just after the event that shows the answer (`at` counts the events shown).
                    <a href={here.href(&format!("s={scenario}&at={}", q.moment.map_or(0, |m| m + 1)))} data-testid="see-it">
                        { "See it happen in the playground" }
                    </a>
                }
                if let Some(lesson) = &q.lesson {
                    { if q.scenario.is_some() { " · " } else { "" } }
                    <a href={here.href(&format!("learn={lesson}&step=1"))}>{ "The lesson" }</a>
                }
            </p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::ChoiceMark;

    #[test]
    fn nothing_is_marked_before_an_answer() {
        assert_eq!(
            (0..4)
                .map(|i| ChoiceMark::of(i, None, 2))
                .collect::<Vec<_>>(),
            [None, None, None, None]
        );
    }

    #[test]
    fn a_wrong_answer_is_marked_and_the_right_one_revealed() {
        let marks: Vec<_> = (0..4).map(|i| ChoiceMark::of(i, Some(0), 2)).collect();
        assert_eq!(
            marks,
            [
                Some(ChoiceMark::ChosenWrong),
                None,
                Some(ChoiceMark::Revealed),
                None
            ]
        );
        // Not by colour alone: the wrong and the right differ in glyph, words and shape.
        let (wrong, right) = (ChoiceMark::ChosenWrong, ChoiceMark::Revealed);
        assert_ne!(wrong.glyph(), right.glyph());
        assert_ne!(wrong.words(), right.words());
        assert_ne!(wrong.class(), right.class());
    }

    #[test]
    fn a_right_answer_is_marked_alone() {
        let marks: Vec<_> = (0..3).map(|i| ChoiceMark::of(i, Some(1), 1)).collect();
        assert_eq!(marks, [None, Some(ChoiceMark::ChosenRight), None]);
    }
}
