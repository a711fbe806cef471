//! The page: the embed view (`crate::embed::view`) for an embed's address; else a navigation bar (with the theme choice) and the page the route names. The
//! playground puts the story first: the setup bar, the scenario's title (its summary and sources
//! in a closed disclosure), the story — the timeline, with the stage beside it —, the "now" line
//! and the transport held at the viewport's bottom; below the fold the run's outcome, the twin
//! when comparing, the action panel, the inspector, the monitoring plots and the event log, with
//! the shortcut sheet and the builder. A lesson: the lesson player over the same timeline. The
//! knowledge check, the interview deck, the guide, the sources.

use crate::components::actions::Actions;
use crate::components::builder_form::BuilderForm;
use crate::components::compare_services;
use crate::components::controls::{Controls, Drag};
use crate::components::deck::Deck;
use crate::components::guide::GuidePage;
use crate::components::inspector::{Inspector, invariant_list};
use crate::components::lessons::{LessonIndex, LessonPlayer, asking, use_answers};
use crate::components::monitor::Monitor;
use crate::components::narration::{EventLog, Narration, NowLine};
use crate::components::quiz::Quiz;
use crate::components::sources::{SourcesPage, citation_list, note_list};
use crate::components::stage::{STEP_GLIDE_MS, Stage};
use crate::components::theme::ThemeChoice;
use crate::components::timeline::Timeline;
use crate::components::toolbar::Toolbar;
use crate::components::{Current, Shared};
use crate::embed::view::EmbedView;
use crate::hooks::{
    SHORTCUTS, initial_playground, initial_route, use_autoplay, use_keyboard,
    use_pause_when_hidden, use_url_sync,
};
use crate::lab::view::ChaosLab;
use crate::link;
use crate::link::fencing_word;
use crate::platform::library::{self, Material};
use crate::platform::panels_wait::{Wait, use_panels_wait, use_sight};
use crate::state::{Action, Notice, Play, Selection};
use lockstep_sim::models::resource::Fencing;
use lockstep_view::content::Content;
use lockstep_view::metrics::of_run;
use lockstep_view::route::Route;
use std::rc::Rc;
use yew::prelude::*;

/// The page: the embed view when the address asks for one (it stays an embed for the page's
/// life), else the site.
#[component]
pub fn App() -> Html {
    match initial_route() {
        Route::Embed(embed) => html! { <EmbedView {embed} /> },
        _ => html! { <Site /> },
    }
}

#[component]
fn Site() -> Html {
    let playground = use_reducer(initial_playground);
    // One callback for the page's life: components compare it by pointer, and a fresh one on
    // every render would render every component that takes it again.
    let dispatch = {
        let handle = playground.dispatcher();
        use_callback((), move |action: Action, _| handle.dispatch(action))
    };
    let route = use_state(initial_route);
    // The guided material is fetched when a page that needs it first opens, once per visit
    // (`library::content`); should it fail to load, the page says why and offers to try again,
    // and the playground still works. Kept behind one `Rc`: `Shared` compares by pointer, so a
    // fresh copy on every render would both deep-copy the material and re-render every page.
    let material = use_state(|| Material::NotLoaded);
    {
        let wanted = route.needs_content() && *material == Material::NotLoaded;
        let material = material.clone();
        use_effect_with(wanted, move |wanted| {
            if *wanted {
                material.set(Material::Loading);
                wasm_bindgen_futures::spawn_local(async move {
                    material.set(match library::content().await {
                        Ok(content) => Material::Ready(content),
                        Err(error) => Material::Failed(error.to_string()),
                    });
                });
            }
        });
    }
    let content = match &*material {
        Material::Ready(content) => Some(content.clone()),
        _ => None,
    };
    let help = use_state(|| false);
    let building = use_state(|| false);
    // The section menu on a narrow screen, where the tabs fold away behind one button.
    let menu_open = use_state(|| false);
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
        let help = help.clone();
        let building = building.clone();
        Callback::from(move |()| {
            help.set(false);
            building.set(false);
        })
    };
    use_autoplay(playground.play(), playground.speed(), dispatch.clone());
    use_pause_when_hidden(dispatch.clone());
    let navigate = {
        let route = route.clone();
        Callback::from(move |to: Route| route.set(to))
    };
    let (answered, on_answer) = use_answers();
    // In a lesson the arrows move between steps, as Back and Next do: → waits while the step's
    // question is open.
    let lesson_arrows = match (&*route, content.as_ref()) {
        (Route::Lesson { id, step }, Some(content)) => content.lesson(id).map(|lesson| {
            let last = lesson.steps.len().saturating_sub(1);
            let open_question = asking(lesson, *step, &answered);
            let (id, step) = (id.clone(), *step);
            let navigate = navigate.clone();
            Callback::from(move |next: bool| {
                let to = match (next, open_question) {
                    (true, true) => return,
                    (true, false) => (step + 1).min(last),
                    (false, _) => step.saturating_sub(1),
                };
                navigate.emit(Route::Lesson {
                    id: id.clone(),
                    step: to,
                });
            })
        }),
        _ => None,
    };
    use_keyboard(
        dispatch.clone(),
        toggle_help.clone(),
        close_dialogs.clone(),
        lesson_arrows,
    );
    // The playground's address, encoded once per render: the URL and the Playground tab share it.
    // The scenario's part is encoded once per run (it is dear: JSON and base64); each step only
    // adds its position.
    let setup_fragment = {
        let playground = playground.clone();
        use_memo(Shared(playground.run_rc()), move |_| {
            playground.moment().map(|m| link::encode_setup(&m))
        })
    };
    let moment_fragment = setup_fragment
        .as_ref()
        .as_ref()
        .map(|setup| link::at_position(setup, Some(playground.position()), playground.compare()));
    // While the scrubber is dragged, the story (timeline, stage, "now" line, transport) follows
    // every move, and the panels below it keep the moment where the drag began until it rests:
    // they are out of sight on most screens, and drawing them anew on every move would make the
    // timeline lag behind the pointer.
    let drag = use_state_eq(|| Drag::Resting);
    let on_drag = {
        let drag = drag.clone();
        use_callback((), move |next: Drag, _| drag.set(next))
    };
    let below_story = use_node_ref();
    let sight = use_sight(below_story.clone(), *route == Route::Playground);
    let (wait, (held_run, held_sim)) = use_panels_wait(
        Shared(playground.run_rc()),
        Shared(playground.sim_rc()),
        *drag == Drag::Moving,
        sight,
    );
    let holding = wait == Wait::Waiting;
    let held_position = held_sim.trace().len();
    // What the monitor plots: the whole run's figures once per run, cut at each step.
    let metrics = use_memo(Shared(playground.run_rc()), |run| of_run(run));
    let monitor = html! {
        <Monitor whole={Shared(metrics.clone())} shown={metrics.shown(held_position)}
            end={playground.layout().end} />
    };
    // While a scenario's file loads (a link's or a menu choice's), the URL keeps what the visitor
    // asked for: a reload or a copied address must not fall back to what happens to show meanwhile.
    let loading = matches!(playground.notice(), Some(Notice::Loading(_)));
    use_url_sync(
        moment_fragment.clone().filter(|_| !loading),
        route.clone(),
        dispatch.clone(),
    );

    let notice = playground.notice().map(|notice| {
        let dismiss = dispatch.reform(|_: MouseEvent| Action::Dismiss);
        let (class, role, text) = match notice {
            Notice::Problem(text) => ("notice problem", "alert", text.clone()),
            Notice::Info(text) => ("notice info", "status", text.clone()),
            Notice::Loading(text) => ("notice loading", "status", text.clone()),
        };
        html! {
            <div class={class} role={role} data-testid="notice">
                <span>{ text }</span>
                <button type="button" class="link" onclick={dismiss} aria-label="Dismiss this message">{ "Dismiss" }</button>
            </div>
        }
    });
    let main_caption_fencing = playground.fencing();
    let main_caption = match playground.fencing() {
        Some(fencing) => format!("Timeline · fencing {}", fencing_word(fencing)),
        None => "Timeline".to_owned(),
    };
    let compare_verdict = playground
        .twin()
        .and_then(|twin| twin.verdict_line())
        .map(compare_services::verdict);
    let twin = playground.twin().map(|twin| {
        let violated = twin.at.trace().last().map(|e| e.violated).unwrap_or_default();
        let now = twin.at.trace().last().map_or(0, |e| e.time.0);
        let invariants_heading = match (twin.fencing(), twin.against()) {
            (Some(fencing), _) => format!("invariants now, fencing {}", fencing_word(fencing)),
            (None, Some(against)) => format!("invariants now, {}", against.service_b.label()),
            (None, None) => "invariants now, the twin".to_owned(),
        };
        html! {
            <div class="twin" data-testid="twin">
                <Timeline layout={Shared(twin.layout.clone())} sim={Shared(twin.at.clone())} position={twin.at.trace().len()}
                    now={now} selection={playground.selection()} dispatch={dispatch.clone()} name="twin"
                    scope={playground.scenario_id().to_owned()}
                    caption={twin.caption()} />
                { run_outcome(twin.run.outcome(), twin.fencing(), "twin-outcome") }
                <section class="card twin-invariants" data-testid="twin-invariants">
                    <h2>{ invariants_heading }</h2>
                    { invariant_list(violated) }
                </section>
                { for twin.against().map(compare_services::carried_list) }
            </div>
        }
    });
    // A lesson step that opens a comparison with another service or scenario shows the twin's
    // timeline under the main one (a fencing twin stays a playground matter).
    let lesson_twin = playground.twin().filter(|t| t.fencing().is_none()).map(|twin| {
        let now = twin.at.trace().last().map_or(0, |e| e.time.0);
        html! {
            <Timeline layout={Shared(twin.layout.clone())} sim={Shared(twin.at.clone())} position={twin.at.trace().len()}
                now={now} selection={playground.selection()} dispatch={dispatch.clone()} name="twin"
                scope={playground.scenario_id().to_owned()} caption={twin.caption()} />
        }
    });
    let close = close_dialogs.reform(|_: MouseEvent| ());
    let main_timeline = html! {
        <Timeline layout={Shared(playground.layout().clone())} sim={Shared(playground.sim_rc())}
            position={playground.position()} now={playground.now().0}
            selection={playground.selection()} dispatch={dispatch.clone()} name="main"
            scope={playground.scenario_id().to_owned()}
            caption={main_caption} />
    };
    // While playing, a message glides to its next place over one tick; a Step by hand, briefly.
    let glide_ms = match playground.play() {
        Play::Playing => playground.speed().tick_ms(),
        Play::Paused => STEP_GLIDE_MS,
    };
    let stage = html! {
        <Stage layout={Shared(playground.layout().clone())} sim={Shared(playground.sim_rc())}
            position={playground.position()} now={playground.now().0}
            selection={playground.selection()} dispatch={dispatch.clone()} {glide_ms} />
    };
    let retry = {
        let material = material.clone();
        Callback::from(move |_: MouseEvent| material.set(Material::NotLoaded))
    };
    let material = |page: &dyn Fn(Shared<Content>) -> Html| match &*material {
        Material::Ready(content) => page(Shared(Rc::clone(content))),
        Material::NotLoaded | Material::Loading => html! {
            <section class="page" data-testid="content-loading" aria-busy="true">
                <p class="muted" role="status">{ "Loading the lessons, questions, interview cards and guide…" }</p>
            </section>
        },
        Material::Failed(error) => html! {
            <section class="page" data-testid="content-error">
                <div class="notice problem" role="alert">
                    <span>{ format!("The lessons, questions, cards and guide could not be loaded. {error}.") }</span>
                    <button type="button" class="control" data-testid="content-retry" onclick={retry.clone()}>{ "Try again" }</button>
                </div>
                <p>{ "The playground does not need them: " }<a href="#">{ "open the playground" }</a>{ "." }</p>
            </section>
        },
    };
    let body = match &*route {
        Route::Playground => html! {
            <>
                // The page's heading, as the tab names it; the scenario's title below is what the
                // eye reads.
                <h2 class="visually-hidden">{ "Playground" }</h2>
                <header class="app-header setup-bar">
                    <Toolbar playground={Current(playground.clone())} origin={playground.origin().clone()}
                        title={AttrValue::from(playground.title().to_owned())} seed={playground.seed()}
                        fencing={playground.fencing()} compare={playground.compare()} service={playground.service()}
                        dispatch={dispatch.clone()} on_help={toggle_help.clone()} on_build={open_builder} />
                </header>
                <div class="title-line">
                    <p class="scenario">
                        <span class="scenario-name" data-testid="scenario-name">{ playground.title() }</span>
                        <span class="seed">{ format!("seed {}", playground.seed()) }</span>
                    </p>
                    <details class="about" data-testid="about-scenario">
                        <summary>{ "About this scenario" }</summary>
                        <p class="summary">{ playground.summary() }</p>
                        { citation_list(&playground.scenario().map_or_else(Vec::new, |s| s.citations())) }
                        { note_list(playground.scenario().into_iter().flat_map(|s| s.notes())) }
                    </details>
                </div>
                { for notice }
                { for compare_verdict }
                // The story: the timeline with the stage beside it and the "now" line under both (on a
                // narrow screen the stage goes under the "now" line).
                <div class="story">
                    { main_timeline }
                    { stage }
                    <NowLine sim={Shared(playground.sim_rc())} />
                </div>
                <Controls playground={playground.clone()} dispatch={dispatch.clone()} on_drag={on_drag.clone()} />
                <div class="below-story" data-testid="below-story" ref={below_story} aria-busy={holding.then_some("true")}>
                    { run_outcome(playground.run().outcome(), main_caption_fencing, "run-outcome") }
                    { for twin }
                    <div class="panels">
                        <Actions playground={Current(playground.clone())} selection={playground.selection()}
                            log={Shared(playground.log_rc())}
                            moment={(playground.selection() != Selection::Nothing)
                                .then(|| (Shared(playground.run_rc()), playground.position()))}
                            dispatch={dispatch.clone()} />
                        <aside class="inspector-panel" aria-label="Inspect">
                            <Inspector sim={held_sim.clone()} />
                        </aside>
                        <div class="monitor-panel">
                            { monitor.clone() }
                        </div>
                    </div>
                    <EventLog sim={held_sim} run={held_run} dispatch={dispatch.clone()} />
                </div>
            </>
        },
        // The lesson beside its timeline: at 1280×800 the step's text, Next, the timeline (eight
        // lanes for Redlock) and the narration's "now" line fit one screen. On a narrow screen
        // the lesson comes first, then the timeline.
        Route::Lesson { id, step } => html! {
            <>
                <div class="lesson-layout">
                    <div class="lesson-column">
                        { for notice }
                        { material(&|content| html! {
                            <LessonPlayer {content} id={id.clone()} step={*step} playground={playground.clone()}
                                dispatch={dispatch.clone()} navigate={navigate.clone()}
                                answered={(*answered).clone()} on_answer={on_answer.clone()} />
                        }) }
                    </div>
                    <div class="lesson-stage">
                        { for compare_verdict.clone() }
                        { main_timeline }
                        <p class="muted lesson-position">
                            <span data-testid="position">{ format!("event {} of {}", playground.position(), playground.total()) }</span>
                            { format!(" · t = {} ms · {}", playground.now().0, playground.title()) }
                        </p>
                        <Narration sim={Shared(playground.sim_rc())} run={Shared(playground.run_rc())} dispatch={dispatch.clone()} />
                        // The other service's timeline under the narration: the verdict above says
                        // what it shows, and the step's text, Next and the "now" line keep one screen.
                        { for lesson_twin }
                    </div>
                </div>
                <aside class="inspector-panel lesson-inspect" aria-label="Inspect">
                    { monitor.clone() }
                    <Inspector sim={Shared(playground.sim_rc())} />
                </aside>
            </>
        },
        Route::Lessons => material(&|content| html! { <LessonIndex {content} /> }),
        Route::Quiz => material(&|content| html! { <Quiz {content} /> }),
        Route::Deck => material(&|content| html! { <Deck {content} /> }),
        Route::Guide => material(&|content| html! { <GuidePage {content} /> }),
        Route::Sources => html! { <SourcesPage /> },
        Route::Lab(link) => {
            let navigate = navigate.clone();
            let on_change = Callback::from(move |spec| {
                navigate.emit(Route::Lab(lockstep_view::lab_link::LabLink {
                    spec,
                    problems: Vec::new(),
                }))
            });
            html! { <ChaosLab link={link.clone()} {on_change} /> }
        }
        // An embed's address typed into the site's address bar: the embed is a page of its own.
        Route::Embed(_) => {
            crate::platform::browser::reload();
            Html::default()
        }
    };
    let playground_href = format!("#{}", moment_fragment.unwrap_or_default());
    let tab = |href: String, label: &'static str, testid: &'static str, here: bool| {
        html! {
            <a {href} data-testid={testid} class={classes!("tab", here.then_some("here"))}
                aria-current={here.then_some("page")}>{ label }</a>
        }
    };
    let at = &*route;
    // The trace hash is the playground's run: shown where that run is (the playground and a
    // lesson over it), not on the pages that have no run.
    let shows_run = matches!(at, Route::Playground | Route::Lesson { .. });
    let toggle_menu = {
        let menu_open = menu_open.clone();
        Callback::from(move |_: MouseEvent| menu_open.set(!*menu_open))
    };
    let close_menu = {
        let menu_open = menu_open.clone();
        Callback::from(move |_: MouseEvent| menu_open.set(false))
    };
    html! {
        <main class="app" data-testid="app">
            <nav class={classes!("site-nav", menu_open.then_some("open"))} aria-label="Sections">
                <h1 class="brand">{ "Lockstep" }</h1>
                <button type="button" class="tool nav-menu-button" data-testid="nav-menu"
                    aria-expanded={menu_open.to_string()} aria-controls="nav-tabs" onclick={toggle_menu}>
                    { "Menu" }
                </button>
                // Each label is the heading of the page it opens.
                <div class="nav-tabs" id="nav-tabs" onclick={close_menu}>
                    { tab(playground_href, "Playground", "nav-playground", *at == Route::Playground) }
                    { tab("#learn".to_owned(), "Lessons", "nav-lessons", matches!(at, Route::Lessons | Route::Lesson { .. })) }
                    { tab("#quiz".to_owned(), "Knowledge check", "nav-quiz", *at == Route::Quiz) }
                    { tab("#deck".to_owned(), "Interview deck", "nav-deck", *at == Route::Deck) }
                    { tab("#guide".to_owned(), "Efficiency or correctness?", "nav-guide", *at == Route::Guide) }
                    { tab("#lab".to_owned(), "Chaos lab", "nav-lab", matches!(at, Route::Lab(_))) }
                    { tab("#sources".to_owned(), "Sources", "nav-sources", *at == Route::Sources) }
                </div>
                <ThemeChoice />
            </nav>
            { body }
            if shows_run {
                <footer class="app-footer">
                    <span>{ "trace hash " }<code data-testid="trace-hash">{ playground.full_hash() }</code></span>
                    <span>{ "Same scenario, seed and actions give the same trace, here and in the CLI." }</span>
                </footer>
            }
            if *help {
                <div class="dialog-backdrop">
                    <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="help-title" data-testid="shortcuts">
                        <h2 id="help-title">{ "Keyboard shortcuts" }</h2>
                        <table class="shortcuts">
                            { for SHORTCUTS.iter().map(|(key, what)| html! {
                                <tr><th><kbd>{ *key }</kbd></th><td>{ *what }</td></tr>
                            }) }
                        </table>
                        <p class="muted">{ "Tab moves between controls; Enter or Space presses the focused one. \
                            On the timeline, lane names and marks are buttons too." }</p>
                        <div class="dialog-buttons">
                            <button type="button" class="control primary" onclick={close} data-testid="close-shortcuts" autofocus=true>{ "Close" }</button>
                        </div>
                    </div>
                </div>
            }
            if *building {
                <BuilderForm dispatch={dispatch.clone()} on_close={close_dialogs.clone()} />
            }
        </main>
    }
}

/// How the whole run ends at the resource, computed from the run (never written by hand), so it
/// follows the fencing switch and the user's interventions. Shown on the playground only: in a
/// lesson it would give away the answers. Closed until opened: it tells the end of the run, which
/// a learner stepping through should not have spoiled.
fn run_outcome(lines: &[String], fencing: Option<Fencing>, testid: &'static str) -> Html {
    let heading = match fencing {
        Some(fencing) => format!("How this run ends, fencing {}", fencing_word(fencing)),
        None => "How this run ends".to_owned(),
    };
    html! {
        <details class="run-outcome" data-testid={testid}>
            <summary class="muted">{ heading }</summary>
            <ul>
                { for lines.iter().map(|line| html! { <li data-testid="outcome-line">{ line.clone() }</li> }) }
            </ul>
        </details>
    }
}
