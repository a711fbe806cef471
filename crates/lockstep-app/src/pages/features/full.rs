//! The full binary's pages and dialog: the lessons (over the playground's run), the lessons'
//! index, the knowledge check, the deck, the guide, the sources, the chaos lab, the real runs,
//! and the builder.

use super::context::Context;
use crate::components::Shared;
use crate::lab::runner::KeptRuns;
use crate::lab::view::ChaosLab;
use crate::pages::builder::BuilderForm;
use crate::pages::deck::Deck;
use crate::pages::guide::GuidePage;
use crate::pages::lesson::{LessonPage, lesson_page};
use crate::pages::lessons::{Answer, Answered, LessonIndex, asking, use_answers};
use crate::pages::material::{use_material, with_material};
use crate::pages::playground::Story;
use crate::pages::quiz::Quiz;
use crate::pages::real_runs::RealRunsPage;
use crate::pages::sources::SourcesPage;
use crate::platform::library::Material;
use crate::state::Action;
use lockstep_view::content::Content;
use lockstep_view::link::route::Route;
use std::rc::Rc;
use yew::prelude::*;

/// What the guided pages keep for the visit: the material, the answers given, the lab's runs.
pub struct MaterialPages {
    material: UseStateHandle<Material>,
    answered: Answered,
    on_answer: Callback<Answer>,
    lab_kept: KeptRuns,
}

#[hook]
pub fn use_material_pages(route: &Route) -> MaterialPages {
    let material = use_material(route.needs_content());
    let (answered, on_answer) = use_answers();
    // The chaos lab's results outlive its page for the visit.
    let lab_kept = use_memo((), |_| KeptRuns::default());
    MaterialPages {
        material,
        answered: (*answered).clone(),
        on_answer,
        lab_kept: (*lab_kept).clone(),
    }
}

impl MaterialPages {
    /// In a lesson the arrows move between steps, as Back and Next do: → waits while the
    /// step's question is open.
    pub fn arrows(&self, route: &Route, navigate: &Callback<Route>) -> Option<Callback<bool>> {
        let (Route::Lesson { id, step }, Material::Ready(content)) = (route, &*self.material)
        else {
            return None;
        };
        let lesson = content.lesson(id)?;
        let last = lesson.steps.len().saturating_sub(1);
        let open_question = asking(lesson, *step, &self.answered);
        let (id, step) = (id.clone(), *step);
        let navigate = navigate.clone();
        Some(Callback::from(move |next: bool| {
            let to = match (next, open_question) {
                (true, true) => return,
                (true, false) => (step + 1).min(last),
                (false, _) => step.saturating_sub(1),
            };
            navigate.emit(Route::Lesson {
                id: id.clone(),
                step: to,
            });
        }))
    }

    /// The guided material, once in hand.
    pub fn content(&self) -> Option<Rc<Content>> {
        match &*self.material {
            Material::Ready(content) => Some(Rc::clone(content)),
            Material::NotLoaded | Material::Loading | Material::Failed(_) => None,
        }
    }

    /// The page `route` names (not the playground's, nor an embed's).
    pub fn page(self, route: &Route, context: Context, story: Story) -> Html {
        let material = |page: &dyn Fn(Shared<Content>) -> Html| with_material(&self.material, page);
        match route {
            Route::Lesson { id, step } => lesson_page(LessonPage {
                id,
                step: *step,
                playground: context.playground,
                dispatch: context.dispatch,
                navigate: context.navigate,
                answered: self.answered.clone(),
                on_answer: self.on_answer.clone(),
                material: &self.material,
                story,
            }),
            Route::Lessons => material(&|content| html! { <LessonIndex {content} /> }),
            Route::Quiz { question } => {
                let (question, navigate) = (*question, context.navigate.clone());
                material(
                    &|content| html! { <Quiz {content} {question} navigate={navigate.clone()} /> },
                )
            }
            Route::Deck => material(&|content| html! { <Deck {content} /> }),
            Route::Guide => material(&|content| html! { <GuidePage {content} /> }),
            Route::Sources => html! { <SourcesPage /> },
            Route::Real { recording } => html! { <RealRunsPage recording={recording.clone()} /> },
            Route::Lab(link) => {
                let navigate = context.navigate.clone();
                let on_change = Callback::from(move |spec| {
                    navigate.emit(Route::Lab(lockstep_view::link::lab::LabLink {
                        spec,
                        problems: Vec::new(),
                    }))
                });
                html! { <ChaosLab link={link.clone()} {on_change} kept={self.lab_kept.clone()} /> }
            }
            Route::Playground | Route::Embed(_) => Html::default(),
        }
    }
}

/// The builder, as a dialog over the page.
pub fn builder(
    dispatch: &Callback<Action>,
    on_close: &Callback<()>,
    _playground_link: Option<AttrValue>,
) -> Html {
    html! { <BuilderForm dispatch={dispatch.clone()} on_close={on_close.clone()} /> }
}
