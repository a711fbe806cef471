//! The site: the playground's state, kept across pages, and the page the route names — the
//! playground, a lesson over the same run, the lessons' index, the knowledge check, the
//! interview deck, the guide, the sources, the chaos lab — under the navigation bar, with the
//! shortcut sheet and the builder as dialogs.

use crate::components::Shared;
use crate::components::builder_form::BuilderForm;
use crate::components::controls::Drag;
use crate::components::deck::Deck;
use crate::components::first_run::use_first_run;
use crate::components::guide::GuidePage;
use crate::components::lessons::{Answered, LessonIndex, asking, use_answers};
use crate::components::monitor::Monitor;
use crate::components::quiz::Quiz;
use crate::components::sources::SourcesPage;
use crate::hooks::{
    initial_playground, initial_route, use_autoplay, use_keyboard, use_pause_when_hidden,
    use_url_sync,
};
use crate::lab::runner::KeptRuns;
use crate::lab::view::ChaosLab;
use crate::link;
use crate::pages::lesson::{LessonPage, lesson_page};
use crate::pages::material::{use_material, with_material};
use crate::pages::nav::SiteNav;
use crate::pages::playground::{PlaygroundPage, Story, playground_page};
use crate::pages::shortcuts::ShortcutSheet;
use crate::platform::browser;
use crate::platform::library::Material;
use crate::platform::panels_wait::{Wait, use_panels_wait, use_sight};
use crate::state::{Action, Notice, Playground};
use lockstep_view::content::Content;
use lockstep_view::metrics::of_run;
use lockstep_view::route::Route;
use yew::prelude::*;

/// The first stop of the Tab key on a page with a run: past the navigation and the setup to the
/// transport's Step (a hash link would change the route).
fn skip_link() -> Html {
    html! {
        <button type="button" class="skip-link" data-testid="skip-link"
            onclick={Callback::from(|_: MouseEvent| browser::focus("[data-testid=\"step\"]"))}>
            { "Skip to the player" }
        </button>
    }
}

#[component]
pub fn Site() -> Html {
    let playground = use_reducer(initial_playground);
    // One callback for the page's life: components compare it by pointer, and a fresh one on
    // every render would render every component that takes it again.
    let dispatch = {
        let handle = playground.dispatcher();
        use_callback((), move |action: Action, _| handle.dispatch(action))
    };
    let route = use_state(initial_route);
    let material = use_material(route.needs_content());
    let Dialogs {
        help,
        building,
        toggle_help,
        open_builder,
        close_dialogs,
    } = use_dialogs();
    use_autoplay(playground.play(), playground.speed(), dispatch.clone());
    use_pause_when_hidden(dispatch.clone());
    let navigate = {
        let route = route.clone();
        Callback::from(move |to: Route| route.set(to))
    };
    let guide = use_first_run(&playground, &dispatch, &navigate);
    let (answered, on_answer) = use_answers();
    // The chaos lab's results outlive its page for the visit.
    let lab_kept = use_memo((), |_| KeptRuns::default());
    let arrows = lesson_arrows(&route, &material, &answered, &navigate);
    use_keyboard(
        dispatch.clone(),
        toggle_help.clone(),
        close_dialogs.clone(),
        arrows,
    );
    let moment_fragment = use_moment_fragment(&playground);
    // While a scenario's file loads (a link's or a menu choice's), the URL keeps what the visitor
    // asked for: a reload or a copied address must not fall back to what happens to show meanwhile.
    let loading = matches!(playground.notice(), Some(Notice::Loading(_)));
    use_url_sync(
        moment_fragment.clone().filter(|_| !loading),
        route.clone(),
        dispatch.clone(),
    );
    let pages = Pages {
        playground: playground.clone(),
        dispatch: dispatch.clone(),
        navigate,
        material,
        answered: (*answered).clone(),
        on_answer,
        on_help: toggle_help,
        on_build: open_builder,
        lab_kept: (*lab_kept).clone(),
        guide,
    };
    let body = pages.body(
        &route,
        use_story(&playground, &dispatch, *route == Route::Playground),
    );
    // The trace hash is the playground's run: shown where that run is (the playground and a
    // lesson over it), not on the pages that have no run.
    let shows_run = matches!(*route, Route::Playground | Route::Lesson { .. });
    let playground_href = format!("#{}", moment_fragment.unwrap_or_default());
    html! {
        <main class="app" data-testid="app">
            if shows_run {
                { skip_link() }
            }
            <SiteNav at={(*route).clone()} playground_href={AttrValue::from(playground_href)} />
            { body }
            if shows_run {
                <footer class="app-footer">
                    <span>{ "trace hash " }<code data-testid="trace-hash">{ playground.full_hash() }</code></span>
                    <span>{ "Same scenario, seed and actions give the same trace, here and in the CLI." }</span>
                </footer>
            }
            if *help {
                <ShortcutSheet on_close={close_dialogs.reform(|_: MouseEvent| ())} />
            }
            if *building {
                <BuilderForm dispatch={dispatch.clone()} on_close={close_dialogs.clone()} />
            }
        </main>
    }
}

/// The shortcut sheet and the builder, and the callbacks that open and close them.
struct Dialogs {
    help: UseStateHandle<bool>,
    building: UseStateHandle<bool>,
    toggle_help: Callback<()>,
    open_builder: Callback<()>,
    close_dialogs: Callback<()>,
}

#[hook]
fn use_dialogs() -> Dialogs {
    let help = use_state(|| false);
    let building = use_state(|| false);
    // Callbacks kept across renders where a component compares them: a fresh one would render
    // the setup bar again on every Step.
    let toggle_help = {
        let help = help.clone();
        use_callback(*help, move |(), shown: &bool| help.set(!*shown))
    };
    let open_builder = {
        let building = building.clone();
        use_callback((), move |(), _| building.set(true))
    };
    let close_dialogs = {
        let (help, building) = (help.clone(), building.clone());
        Callback::from(move |()| {
            help.set(false);
            building.set(false);
        })
    };
    Dialogs {
        help,
        building,
        toggle_help,
        open_builder,
        close_dialogs,
    }
}

/// In a lesson the arrows move between steps, as Back and Next do: → waits while the step's
/// question is open.
fn lesson_arrows(
    route: &Route,
    material: &Material,
    answered: &Answered,
    navigate: &Callback<Route>,
) -> Option<Callback<bool>> {
    let (Route::Lesson { id, step }, Material::Ready(content)) = (route, material) else {
        return None;
    };
    let lesson = content.lesson(id)?;
    let last = lesson.steps.len().saturating_sub(1);
    let open_question = asking(lesson, *step, answered);
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

/// The playground's address: the URL and the Playground tab share it. The scenario's part is
/// encoded once per run (it is dear: JSON and base64); each step only adds its position.
#[hook]
fn use_moment_fragment(playground: &UseReducerHandle<Playground>) -> Option<String> {
    let setup_fragment = {
        let playground = playground.clone();
        use_memo(Shared(playground.run_rc()), move |_| {
            playground.moment().map(|m| link::encode_setup(&m))
        })
    };
    setup_fragment
        .as_ref()
        .as_ref()
        .map(|setup| link::at_position(setup, Some(playground.position()), playground.compare()))
}

/// The story's parts, and the panels below it. While the scrubber is dragged, the story
/// (timeline, stage, "now" line, transport) follows every move, and the panels below it keep
/// the moment where the drag began until it rests: they are out of sight on most screens, and
/// drawing them anew on every move would make the timeline lag behind the pointer.
#[hook]
fn use_story(
    playground: &UseReducerHandle<Playground>,
    dispatch: &Callback<Action>,
    on_playground: bool,
) -> Below {
    let drag = use_state_eq(|| Drag::Resting);
    let on_drag = {
        let drag = drag.clone();
        use_callback((), move |next: Drag, _| drag.set(next))
    };
    let below_story = use_node_ref();
    let sight = use_sight(below_story.clone(), on_playground);
    let (wait, (held_run, held_sim)) = use_panels_wait(
        Shared(playground.run_rc()),
        Shared(playground.sim_rc()),
        *drag == Drag::Moving,
        sight,
    );
    // What the monitor plots: the whole run's figures once per run, cut at each step.
    let metrics = use_memo(Shared(playground.run_rc()), |run| of_run(run));
    let monitor = html! {
        <Monitor whole={Shared(metrics.clone())} shown={metrics.shown(held_sim.trace().len())}
            end={playground.layout().end} />
    };
    Below {
        story: Story::of(playground, dispatch, monitor),
        on_drag,
        below_story,
        holding: wait == Wait::Waiting,
        held_run,
        held_sim,
    }
}

/// The story and what the playground shows below it.
struct Below {
    story: Story,
    on_drag: Callback<Drag>,
    below_story: NodeRef,
    holding: bool,
    held_run: Shared<lockstep_view::run::Run>,
    held_sim: Shared<lockstep_sim::Sim>,
}

/// What every page may need from the site.
struct Pages {
    playground: UseReducerHandle<Playground>,
    dispatch: Callback<Action>,
    navigate: Callback<Route>,
    material: UseStateHandle<Material>,
    answered: Answered,
    on_answer: Callback<crate::components::lessons::Answer>,
    on_help: Callback<()>,
    on_build: Callback<()>,
    lab_kept: KeptRuns,
    /// The guided start's card, while a first visit runs it.
    guide: Option<Html>,
}

impl Pages {
    /// The page `route` names.
    fn body(self, route: &Route, below: Below) -> Html {
        let material = |page: &dyn Fn(Shared<Content>) -> Html| with_material(&self.material, page);
        match route {
            Route::Playground => playground_page(PlaygroundPage {
                playground: self.playground.clone(),
                dispatch: self.dispatch.clone(),
                on_help: self.on_help.clone(),
                on_build: self.on_build.clone(),
                on_drag: below.on_drag,
                story: below.story,
                below_story: below.below_story,
                holding: below.holding,
                held_run: below.held_run,
                held_sim: below.held_sim,
                guide: self.guide.clone(),
            }),
            Route::Lesson { id, step } => lesson_page(LessonPage {
                id,
                step: *step,
                playground: self.playground.clone(),
                dispatch: self.dispatch.clone(),
                navigate: self.navigate.clone(),
                answered: self.answered.clone(),
                on_answer: self.on_answer.clone(),
                material: &self.material,
                story: below.story,
            }),
            Route::Lessons => material(&|content| html! { <LessonIndex {content} /> }),
            Route::Quiz { question } => {
                let (question, navigate) = (*question, self.navigate.clone());
                material(
                    &|content| html! { <Quiz {content} {question} navigate={navigate.clone()} /> },
                )
            }
            Route::Deck => material(&|content| html! { <Deck {content} /> }),
            Route::Guide => material(&|content| html! { <GuidePage {content} /> }),
            Route::Sources => html! { <SourcesPage /> },
            Route::Lab(link) => {
                let navigate = self.navigate.clone();
                let on_change = Callback::from(move |spec| {
                    navigate.emit(Route::Lab(lockstep_view::lab::link::LabLink {
                        spec,
                        problems: Vec::new(),
                    }))
                });
                html! { <ChaosLab link={link.clone()} {on_change} kept={self.lab_kept.clone()} /> }
            }
            // An embed's address typed into the site's address bar: the embed is a page of its own.
            Route::Embed(_) => {
                crate::platform::browser::reload();
                Html::default()
            }
        }
    }
}
