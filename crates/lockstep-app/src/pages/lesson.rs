//! A lesson's page: the lesson beside its timeline. At 1280×800 the step's text, Next, the
//! timeline (eight lanes for Redlock) and the narration's "now" line fit one screen. On a narrow
//! screen the lesson comes first, then the timeline.

use crate::components::Shared;
use crate::components::inspector::Inspector;
use crate::components::narration::Narration;
use crate::components::timeline::{AxisRole, FirstWidth, FollowLead, SharedTimeAxis, Timeline};
use crate::pages::lessons::{Answer, Answered, LessonPlayer};
use crate::pages::material::with_material;
use crate::pages::playground::Story;
use crate::platform::library::Material;
use crate::state::{Action, Playground};
use lockstep_view::link::route::Route;
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
