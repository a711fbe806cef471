//! A whole lesson in an embed (`#embed&learn=<id>&step=<n>`): the lesson player — its steps,
//! predictions, Back and Next — over the lesson's timeline and "now" line, under a one-line
//! caption with "Open in Lockstep ↗" (the lesson at the same step in the full app). ← and → move
//! between steps. "Now break it yourself" opens the full playground at the step's moment in a
//! new tab.

use crate::components::Shared;
use crate::components::narration::NowLine;
use crate::components::timeline::Timeline;
use crate::embed::frame_parts::{open_link, problem};
use crate::hooks::use_keyboard;
use crate::link;
use crate::pages::lessons::{Answered, LessonPlayer, asking, use_answers};
use crate::platform::browser;
use crate::platform::library::{self, Material};
use crate::state::{Action, Notice, Playground};
use lockstep_view::link::route::Route;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EmbedLessonProps {
    pub id: String,
    /// The step to open at, 0-based.
    pub step: usize,
    pub caption: Option<String>,
}

#[component]
pub fn EmbedLesson(props: &EmbedLessonProps) -> Html {
    let playground = use_reducer(Playground::default_scenario);
    let dispatch = {
        let handle = playground.dispatcher();
        use_callback((), move |action: Action, _| handle.dispatch(action))
    };
    let step = use_state(|| props.step);
    let material = use_lessons();
    let (answered, on_answer) = use_answers();
    let navigate = navigate_in_embed(&step, &playground);
    use_step_keys(&material, &props.id, &step, &answered);
    let content = match &*material {
        Material::Ready(content) => Rc::clone(content),
        Material::Failed(error) => {
            return problem(&format!("the lessons could not be loaded ({error})"));
        }
        Material::NotLoaded | Material::Loading => {
            return html! {
                <p class="embed-loading muted" role="status" data-testid="embed-loading" aria-busy="true">
                    { "Loading the lesson…" }
                </p>
            };
        }
    };
    let Some(lesson) = content.lesson(&props.id) else {
        return problem(&format!(
            "`learn={}`: there is no lesson with that id",
            props.id
        ));
    };
    let last = lesson.steps.len().saturating_sub(1);
    if props.step > last {
        return problem(&format!(
            "`step={}`: the lesson \u{201c}{}\u{201d} has {} steps",
            props.step + 1,
            lesson.title,
            lesson.steps.len()
        ));
    }
    let caption = props
        .caption
        .clone()
        .unwrap_or_else(|| lesson.title.clone());
    let open = Route::Lesson {
        id: props.id.clone(),
        step: *step,
    }
    .fragment()
    .unwrap_or_default();
    let trouble = match playground.notice() {
        Some(Notice::Problem(text)) => Some(problem(text)),
        _ => None,
    };
    html! {
        <>
            <header class="embed-caption">
                <h1 class="embed-title" data-testid="embed-caption" title={caption.clone()}>{ caption }</h1>
                { open_link(open) }
            </header>
            { for trouble }
            <div class="embed-lesson">
                <LessonPlayer content={Shared(Rc::clone(&content))} id={props.id.clone()} step={*step}
                    playground={playground.clone()} dispatch={dispatch.clone()} navigate={navigate}
                    answered={(*answered).clone()} {on_answer} />
                { lesson_story(&playground, &dispatch) }
            </div>
        </>
    }
}

/// The lessons, loaded once.
#[hook]
fn use_lessons() -> UseStateHandle<Material> {
    let material = use_state(|| Material::Loading);
    {
        let material = material.clone();
        use_effect_with((), move |_| {
            wasm_bindgen_futures::spawn_local(async move {
                material.set(match library::content().await {
                    Ok(content) => Material::Ready(content),
                    Err(error) => Material::Failed(error.to_string()),
                });
            });
        });
    }
    material
}

/// Where the player's links go in an embed: another step stays in the frame; the sandbox (at
/// the step's moment) and any other page open the full app in a new tab.
fn navigate_in_embed(
    step: &UseStateHandle<usize>,
    playground: &UseReducerHandle<Playground>,
) -> Callback<Route> {
    let step = step.clone();
    let playground = playground.clone();
    Callback::from(move |to: Route| match to {
        Route::Lesson { step: next, .. } => step.set(next),
        Route::Playground => {
            if let (Some(moment), Some(window)) =
                (playground.moment(), crate::platform::browser::window())
            {
                let address = browser::link_with(&link::encode(&moment));
                let _ = window.open_with_url_and_target(&address, "_blank");
            }
        }
        other => {
            if let (Some(fragment), Some(window)) =
                (other.fragment(), crate::platform::browser::window())
            {
                let _ = window.open_with_url_and_target(&browser::link_with(&fragment), "_blank");
            }
        }
    })
}

/// ← and → move between steps, as Back and Next do (→ waits while the step's question is
/// open); the playground's other keys do nothing in a lesson embed.
#[hook]
fn use_step_keys(material: &Material, id: &str, step: &UseStateHandle<usize>, answered: &Answered) {
    let arrows = match material {
        Material::Ready(content) => content.lesson(id).map(|lesson| {
            let last = lesson.steps.len().saturating_sub(1);
            let open_question = asking(lesson, **step, answered);
            let step = step.clone();
            Callback::from(move |next: bool| match (next, open_question) {
                (true, true) => {}
                (true, false) => step.set((*step + 1).min(last)),
                (false, _) => step.set(step.saturating_sub(1)),
            })
        }),
        _ => None,
    };
    use_keyboard(Callback::noop(), Callback::noop(), Callback::noop(), arrows);
}

/// The lesson's timeline and its "now" line, beside the player.
fn lesson_story(playground: &UseReducerHandle<Playground>, dispatch: &Callback<Action>) -> Html {
    html! {
        <div class="embed-lesson-story">
            <Timeline layout={Shared(playground.layout().clone())} sim={Shared(playground.sim_rc())}
                position={playground.position()} now={playground.now().0}
                selection={playground.selection()} dispatch={dispatch.clone()} name="main"
                scope={playground.scenario_id().to_owned()} caption="Timeline" />
            <NowLine sim={Shared(playground.sim_rc())} />
        </div>
    }
}
