//! The playground page. The story first: the setup bar, the scenario's title (its summary and
//! sources in a closed disclosure), the story — the timeline, with the stage beside it —, the
//! "now" line, the run's verdict once it has ended and the popover of actions at a selected node
//! ([`in_place`]), and the transport held at the viewport's bottom; below the fold the
//! run's outcome,
//! the twin when comparing, the action panel, the inspector, the monitoring plots and the event
//! log. Also the parts a lesson shows over the same run ([`Story`]). Its own parts are the
//! folders and files beside it: the setup bar ([`toolbar`]) with its scenario picker, share menu
//! (and its [`embed_dialog`]) and comparison choice, the action panel ([`actions`]) and the
//! actions in place ([`in_place`]).

pub mod actions;
pub mod compare_services;
pub mod embed_dialog;
pub mod in_place;
pub mod scenario_picker;
pub mod share_menu;
pub mod toolbar;

use self::in_place::{ActInPlace, EditedChip, verdict_line};
use self::toolbar::Toolbar;
use crate::components::controls::{Controls, Drag};
use crate::components::disclosure::Folded;
use crate::components::glossary::glossed;
use crate::components::inspector::{Inspector, invariant_list};
use crate::components::link_problem::link_problem;
use crate::components::narration::{EventLog, NowLine};
use crate::components::stage::{STEP_GLIDE_MS, Stage};
use crate::components::timeline::{AxisRole, FollowLead, SharedTimeAxis, Timeline};
use crate::components::{Current, Shared};
use crate::link::Here;
use crate::pages::sources::{citation_list, note_list};
use crate::state::{Action, Notice, Play, Playground, Selection};
use actions::Actions;
use lockstep_sim::Sim;
use lockstep_sim::models::resource::Fencing;
use lockstep_view::link::fencing::fencing_word;
use lockstep_view::recorded::catalogue as recordings;
use lockstep_view::run::Run;
use yew::prelude::*;

/// A run with more events than this folds its event log until asked for (the log lists the
/// latest 40).
const LONG_LOG: usize = 40;

/// What the playground page and a lesson both show of the open run.
pub struct Story {
    pub notice: Option<Html>,
    /// The one-line verdict of both runs while comparing with another service or scenario.
    pub compare_verdict: Option<Html>,
    pub main_timeline: Html,
    pub monitor: Html,
}

impl Story {
    pub fn of(playground: &Playground, dispatch: &Callback<Action>, monitor: Html) -> Story {
        let main_caption = match playground.fencing() {
            Some(fencing) => format!("Timeline · fencing {}", fencing_word(fencing)),
            None => "Timeline".to_owned(),
        };
        Story {
            notice: playground
                .notice()
                .map(|notice| notice_view(notice, dispatch)),
            compare_verdict: playground
                .twin()
                .and_then(|twin| twin.verdict_line())
                .map(compare_services::verdict),
            main_timeline: html! {
                <Timeline layout={Shared(playground.layout().clone())} sim={Shared(playground.sim_rc())}
                    position={playground.position()} now={playground.now().0}
                    selection={playground.selection()} dispatch={dispatch.clone()} name="main"
                    scope={playground.scenario_id().to_owned()} axis={AxisRole::Lead}
                    caption={main_caption} />
            },
            monitor,
        }
    }
}

fn notice_view(notice: &Notice, dispatch: &Callback<Action>) -> Html {
    let dismiss = dispatch.reform(|_: MouseEvent| Action::Dismiss);
    let (class, role, text) = match notice {
        Notice::Link(text) => return link_problem(text, Some(dismiss)),
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
}

/// Everything the playground page needs from the site.
pub struct PlaygroundPage {
    pub playground: UseReducerHandle<Playground>,
    pub dispatch: Callback<Action>,
    pub on_help: Callback<()>,
    pub on_build: Callback<()>,
    pub on_drag: Callback<Drag>,
    pub story: Story,
    /// The panels below the story, watched for whether they are in view.
    pub below_story: NodeRef,
    /// Whether those panels still show the moment a drag began.
    pub holding: bool,
    pub held_run: Shared<Run>,
    pub held_sim: Shared<Sim>,
    /// The card over the story: the guided start's, or a returning visitor's way back in.
    pub guide: Option<Html>,
    /// The page shown, which links are written from.
    pub here: Here,
}

pub fn playground_page(page: PlaygroundPage) -> Html {
    let PlaygroundPage {
        playground,
        dispatch,
        story,
        ..
    } = page;
    // While playing, a message glides to its next place over one tick; a Step by hand, briefly.
    let glide_ms = match playground.play() {
        Play::Playing => playground.speed().tick_ms(),
        Play::Paused => STEP_GLIDE_MS,
    };
    html! {
        // The main timeline and the twin's share one time axis.
        <SharedTimeAxis>
            // The page's heading, as the tab names it; the scenario's title below is what the
            // eye reads.
            <h2 class="visually-hidden">{ "Playground" }</h2>
            <header class="app-header setup-bar">
                <Toolbar playground={Current(playground.clone())} origin={playground.origin().clone()}
                    title={AttrValue::from(playground.title().to_owned())} seed={playground.seed()}
                    fencing={playground.fencing()} compare={playground.compare()} service={playground.service()}
                    dispatch={dispatch.clone()} on_help={page.on_help.clone()} on_build={page.on_build} />
            </header>
            { title_line(&playground, &dispatch, &page.here) }
            { for story.notice }
            { for story.compare_verdict }
            { for page.guide }
            // The story: the timeline with the stage beside it and the "now" line under both (on a
            // narrow screen the stage goes under the "now" line).
            <div class="story">
                { story.main_timeline }
                { for twin_timeline(&playground, &dispatch) }
                <Stage layout={Shared(playground.layout().clone())} sim={Shared(playground.sim_rc())}
                    position={playground.position()} now={playground.now().0}
                    selection={playground.selection()} dispatch={dispatch.clone()} {glide_ms} />
                <NowLine sim={Shared(playground.sim_rc())} />
                { verdict_line(&playground) }
                <ActInPlace playground={playground.clone()} dispatch={dispatch.clone()} />
            </div>
            <Controls playground={playground.clone()} dispatch={dispatch.clone()} on_drag={page.on_drag}
                on_help={page.on_help} />
            <div class="below-story" data-testid="below-story" ref={page.below_story} aria-busy={page.holding.then_some("true")}>
                { run_outcome(playground.run().outcome(), playground.fencing(), "run-outcome") }
                { for twin_view(&playground) }
                <div class="panels">
                    <Actions playground={Current(playground.clone())} selection={playground.selection()}
                        log={Shared(playground.log_rc())}
                        moment={(playground.selection() != Selection::Nothing)
                            .then(|| (Shared(playground.run_rc()), playground.position()))}
                        dispatch={dispatch.clone()} />
                    // Folded until asked for: the first screen is the story and the act panel.
                    <Folded name="inspector" summary="Inspector: every node's state now">
                        <aside class="inspector-panel" aria-label="Inspect">
                            <Inspector sim={page.held_sim.clone()} />
                        </aside>
                    </Folded>
                    <Folded name="monitor" summary="Monitoring: what an operator would see">
                        <div class="monitor-panel">
                            { story.monitor }
                        </div>
                    </Folded>
                </div>
                // A long run's log waits to be asked for; a short one is part of the story.
                <Folded name="log" summary="Event log: every event so far, in words"
                    open_at_first={playground.total() <= LONG_LOG}>
                    <EventLog sim={page.held_sim} run={page.held_run} dispatch={dispatch.clone()} />
                </Folded>
            </div>
        </SharedTimeAxis>
    }
}

fn title_line(playground: &Playground, dispatch: &Callback<Action>, here: &Here) -> Html {
    html! {
        <div class="title-line">
            <p class="scenario">
                <span class="scenario-name" data-testid="scenario-name">{ glossed(playground.title()) }</span>
            </p>
            <EditedChip count={playground.log().len()} dispatch={dispatch.clone()} />
            // The same scenario played against a real service and recorded, where there is one.
            { for recordings::of_scenario(playground.scenario_id()).map(|r| html! {
                <a class="real-run-link" href={here.href(&format!("real={}", r.id()))} data-testid="real-run-link"
                    title="This scenario played by real clients against a real server, beside this simulation">
                    { format!("Real run: {}", r.label) }</a>
            }) }
            <details class="about" data-testid="about-scenario">
                <summary>{ "About this scenario" }</summary>
                <p class="summary">{ glossed(playground.summary()) }</p>
                { citation_list(&playground.scenario().map_or_else(Vec::new, |s| s.citations())) }
                { note_list(playground.scenario().into_iter().flat_map(|s| s.notes())) }
            </details>
        </div>
    }
}

/// The twin's timeline while comparing: in the story, right under the main one, so that the two
/// are adjacent on a phone too.
fn twin_timeline(playground: &Playground, dispatch: &Callback<Action>) -> Option<Html> {
    let twin = playground.twin()?;
    // Stepped to the same time: the twin's "now" is the main run's.
    let now = playground.now().0;
    Some(html! {
        <div class="twin-timeline">
            <FollowLead>
                <Timeline layout={Shared(twin.layout.clone())} sim={Shared(twin.at.clone())} position={twin.at.trace().len()}
                    now={now} selection={playground.selection()} dispatch={dispatch.clone()} name="twin"
                    scope={playground.scenario_id().to_owned()} axis={AxisRole::Follow}
                    caption={twin.caption()} />
            </FollowLead>
        </div>
    })
}

/// The twin's outcome and invariants while comparing (its timeline is in the story).
fn twin_view(playground: &Playground) -> Option<Html> {
    let twin = playground.twin()?;
    let violated = twin
        .at
        .trace()
        .last()
        .map(|e| e.violated)
        .unwrap_or_default();
    let invariants_heading = match (twin.fencing(), twin.against()) {
        (Some(fencing), _) => format!("invariants now, fencing {}", fencing_word(fencing)),
        (None, Some(against)) => format!("invariants now, {}", against.service_b.label()),
        (None, None) => "invariants now, the twin".to_owned(),
    };
    Some(html! {
        <div class="twin" data-testid="twin">
            { run_outcome(twin.run.outcome(), twin.fencing(), "twin-outcome") }
            <section class="card twin-invariants" data-testid="twin-invariants">
                <h2>{ invariants_heading }</h2>
                { invariant_list(violated) }
            </section>
            { for twin.against().map(compare_services::carried_list) }
        </div>
    })
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
