//! A lesson's page: the lesson beside its timeline. At 1280×800 the step's text, Next, the
//! timeline (eight lanes for Redlock) and the narration's "now" line fit one screen. On a narrow
//! screen the lesson comes first, then the timeline. A link to a lesson or a step that does not
//! exist shows the link's banner and the list of lessons, and nothing of a run.

use crate::components::Shared;
use crate::components::inspector::Inspector;
use crate::components::link_problem::link_problem;
use crate::components::narration::Narration;
use crate::components::timeline::{AxisRole, FirstWidth, FollowLead, SharedTimeAxis, Timeline};
use crate::pages::lessons::{Answer, Answered, LessonIndex, LessonPlayer};
use crate::pages::material::with_material;
use crate::pages::playground::Story;
use crate::platform::library::Material;
use crate::state::{Action, Playground};
use lockstep_view::content::Content;
use lockstep_view::link::route::Route;
use std::rc::Rc;
use yew::prelude::*;

/// A lesson's plot in a 1280 px window (the playground's: `timeline::DEFAULT_WIDTH`).
const LESSON_PLOT_WIDTH: f64 = 696.0;

/// Everything a lesson's page needs from the site.
pub struct LessonPage<'a> {
    pub id: &'a str,
    pub step: usize,
    pub playground: UseReducerHandle<Playground>,
    pub dispatch: Callback<Action>,
    pub navigate: Callback<Route>,
    pub answered: Answered,
    pub on_answer: Callback<Answer>,
    pub material: &'a UseStateHandle<Material>,
    pub story: Story,
}

pub fn lesson_page(page: LessonPage) -> Html {
    if let Material::Ready(content) = &**page.material
        && let Some(problem) = no_such_place(content, page.id, page.step)
    {
        // The message and the lessons there are: no timeline of some other run beside them.
        return html! {
            <div class="link-missing" data-testid="lesson-missing">
                { link_problem(&problem, None) }
                <LessonIndex content={Shared(Rc::clone(content))} />
            </div>
        };
    }
    let LessonPage {
        playground,
        dispatch,
        story,
        ..
    } = page;
    let player = {
        let (playground, dispatch) = (playground.clone(), dispatch.clone());
        let (id, step) = (AttrValue::from(page.id.to_owned()), page.step);
        let (navigate, answered, on_answer) = (page.navigate, page.answered, page.on_answer);
        with_material(page.material, &|content| {
            html! {
                <LessonPlayer {content} id={id.clone()} {step} playground={playground.clone()}
                    dispatch={dispatch.clone()} navigate={navigate.clone()}
                    answered={answered.clone()} on_answer={on_answer.clone()} />
            }
        })
    };
    html! {
        <>
            <div class="lesson-layout">
                <div class="lesson-column">
                    { for story.notice }
                    { player }
                </div>
                // The main timeline and a comparison's twin share one time axis. Beside the
                // lesson, a plot is narrower than the playground's.
                <ContextProvider<FirstWidth> context={FirstWidth(LESSON_PLOT_WIDTH)}>
                <SharedTimeAxis>
                    <div class="lesson-stage">
                        { for story.compare_verdict }
                        { story.main_timeline }
                        <p class="muted lesson-position">
                            <span data-testid="position">{ format!("event {} of {}", playground.position(), playground.total()) }</span>
                            { format!(" · t = {} ms · {}", playground.now().0, playground.title()) }
                        </p>
                        <Narration sim={Shared(playground.sim_rc())} run={Shared(playground.run_rc())} dispatch={dispatch.clone()} />
                        // The other service's timeline under the narration: the verdict above says
                        // what it shows, and the step's text, Next and the "now" line keep one screen.
                        { for lesson_twin(&playground, &dispatch) }
                    </div>
                </SharedTimeAxis>
                </ContextProvider<FirstWidth>>
            </div>
            <aside class="inspector-panel lesson-inspect" aria-label="Inspect">
                { story.monitor }
                <Inspector sim={Shared(playground.sim_rc())} />
            </aside>
        </>
    }
}

/// What is wrong with a link to step `step` (0-based) of lesson `id`, if it names no such place.
fn no_such_place(content: &Content, id: &str, step: usize) -> Option<String> {
    let Some(lesson) = content.lesson(id) else {
        return Some(format!(
            "This link names a lesson that does not exist (`learn={id}`). These are the lessons \
             there are."
        ));
    };
    let steps = lesson.steps.len();
    (step >= steps).then(|| {
        format!(
            "This link names step {} of \u{201c}{}\u{201d}, which has {steps} steps (`step={}`). \
             These are the lessons there are.",
            step + 1,
            lesson.title,
            step + 1
        )
    })
}

/// A lesson step that opens a comparison with another service or scenario shows the twin's
/// timeline under the main one (a fencing twin stays a playground matter).
fn lesson_twin(playground: &Playground, dispatch: &Callback<Action>) -> Option<Html> {
    let twin = playground.twin().filter(|t| t.fencing().is_none())?;
    // Stepped to the same time: the twin's "now" is the main run's.
    let now = playground.now().0;
    Some(html! {
        <FollowLead>
            <Timeline layout={Shared(twin.layout.clone())} sim={Shared(twin.at.clone())} position={twin.at.trace().len()}
                now={now} selection={playground.selection()} dispatch={dispatch.clone()} name="twin"
                scope={playground.scenario_id().to_owned()} axis={AxisRole::Follow} caption={twin.caption()} />
        </FollowLead>
    })
}
