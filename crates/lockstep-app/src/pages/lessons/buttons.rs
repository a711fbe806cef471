//! The lesson player's buttons: Back, Next (or "All lessons" on the last step), "Now break it
//! yourself" (the sandbox at this moment) and a counterexample search over the step's scenario.
//!
//! Back and Next are links to the steps' pages, so that they lead there without the app (a page
//! the build rendered, read without JavaScript); the app moves in place instead. Next while a
//! prediction is open, and Back on the first step, say they are disabled (`aria-disabled`) and
//! do nothing in the app; without it, Next still leads on, past the question.

use crate::link::use_here;
use crate::state::Action;
use lockstep_sim::scenario::catalogue;
use lockstep_view::link::route::Route;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LessonButtonsProps {
    pub lesson: AttrValue,
    pub step_index: usize,
    pub total: usize,
    /// Whether the step shows its event: Next waits while its prediction is open.
    pub showing: bool,
    /// The id of the scenario the step stands in.
    pub scenario: AttrValue,
    /// The step's hint for breaking it.
    pub hint: Option<String>,
    pub dispatch: Callback<Action>,
    pub navigate: Callback<Route>,
}

#[component]
pub fn LessonButtons(props: &LessonButtonsProps) -> Html {
    let step_index = props.step_index;
    let here = use_here();
    let go = |index: usize, enabled: bool| {
        let navigate = props.navigate.clone();
        let id = props.lesson.to_string();
        Callback::from(move |click: MouseEvent| {
            click.prevent_default();
            if enabled {
                navigate.emit(Route::Lesson {
                    id: id.clone(),
                    step: index,
                });
            }
        })
    };
    let step_href = |index: usize| here.href(&format!("learn={}&step={}", props.lesson, index + 1));
    let disabled = |yes: bool| yes.then_some("true");
    let break_it = {
        let navigate = props.navigate.clone();
        let dispatch = props.dispatch.clone();
        let hint = props.hint.clone();
        Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::Inform(hint.clone().map_or_else(
                || "You are in the sandbox at the lesson's moment: select a lane or a message to act on it.".to_owned(),
                |hint| format!("Try this: {hint}"),
            )));
            navigate.emit(Route::Playground);
        })
    };
    html! {
        <div class="lesson-buttons">
            // A link without an address on the first step: it leads nowhere, and says so.
            <a class="control" role="link" data-testid="lesson-back" aria-disabled={disabled(step_index == 0)}
                href={(step_index > 0).then(|| step_href(step_index - 1))}
                onclick={go(step_index.saturating_sub(1), step_index > 0)}>{ "◀ Back" }</a>
            if step_index + 1 < props.total {
                <a class="control primary" data-testid="lesson-next" aria-disabled={disabled(!props.showing)}
                    href={step_href(step_index + 1)} onclick={go(step_index + 1, props.showing)}>{ "Next ▶" }</a>
            } else {
                // The recap's "Next lesson" is the step's one filled action.
                <a class="control" data-testid="lesson-done" href={here.href("learn")}>{ "All lessons" }</a>
            }
            <button type="button" class="control" data-testid="break-it" onclick={break_it}>{ "Now break it yourself" }</button>
            // The lesson's scenario handed to the counterexample search, which picks the faults.
            if let Some(entry) = catalogue::entry(&props.scenario) {
                <a class="control" data-testid="search-it" href={here.href(&lockstep_view::link::search::SearchSpec {
                    scenario: entry.id,
                    ..Default::default()
                }.fragment())}>{ "Search for a counterexample" }</a>
            }
        </div>
    }
}
