//! The guided start a first visit lands on (`lockstep_view::first_run`), and which anyone may
//! begin again from the navigation bar: the hook that decides whether it runs, opens S1 through
//! the library and the one reducer, and points at what the card names; and the card itself over
//! the playground, with Skip at every stage. The script — stages, words, choices — is the view
//! crate's; this only draws it and dispatches.

use crate::components::Shared;
use crate::components::glossary::glossed;
use crate::link::Here;
use crate::pages::welcome_back::use_welcome_back;
use crate::platform::{browser, library};
use crate::state::{Action, Playground};
use lockstep_sim::models::resource::Fencing;
use lockstep_view::first_run::{self, Choice, Milestones, Pointer, Stage};
use lockstep_view::link::route::Route;
use yew::prelude::*;

/// The window's lowest px a pointed-at write must stay above: the transport bar's height on a
/// phone (two rows), with a margin.
const TRANSPORT_CLEARANCE: f64 = 140.0;

/// Where the guided start is in this visit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Guide {
    /// A first visit: S1's file is loading.
    Opening,
    /// S1 is open and the card shows.
    Running,
    /// Skipped, finished, or never begun (a returning visitor, a link).
    Ended,
}

/// The guided start: the card over the playground's story (the guided start's while it runs,
/// else, on a returning visitor's landing, where to begin: `crate::pages::welcome_back`), and
/// the callback that begins the guided start (again) on the playground.
pub struct FirstRun {
    pub card: Option<Html>,
    pub begin: Callback<()>,
}

/// Opens S1 at the guided start's first moment, and marks the visit: a reload or a later visit
/// is a return, however this one ends.
fn open(guide: &UseStateHandle<Guide>, dispatch: Callback<Action>) {
    guide.set(Guide::Opening);
    browser::mark_visited();
    library::with_built_in(first_run::SCENARIO, dispatch, |scenario| {
        Action::Restore(Box::new(first_run::moment((*scenario).clone())))
    });
}

#[hook]
pub fn use_first_run(
    address: &str,
    here: &Here,
    playground: &UseReducerHandle<Playground>,
    dispatch: &Callback<Action>,
    navigate: &Callback<Route>,
) -> FirstRun {
    // Whether this is a first visit is in the browser's storage: read after the first render,
    // which draws what the build drew (decision 43), a page without the guided start.
    let guide = use_state_eq(|| Guide::Ended);
    {
        let (guide, dispatch, address) = (guide.clone(), dispatch.clone(), address.to_owned());
        use_effect_with((), move |_| {
            if first_run::opens(&address, browser::visited()) {
                open(&guide, dispatch);
            }
        });
    }
    let begin = {
        let (guide, dispatch, navigate) = (guide.clone(), dispatch.clone(), navigate.clone());
        Callback::from(move |()| {
            open(&guide, dispatch.clone());
            navigate.emit(Route::Playground);
        })
    };
    let on_s1 = playground.scenario_id() == first_run::SCENARIO;
    match (*guide, on_s1) {
        (Guide::Opening, true) => guide.set(Guide::Running),
        // Another scenario opened (the menu, a link): the guided start is over.
        (Guide::Running, false) => guide.set(Guide::Ended),
        _ => {}
    }
    let running = *guide == Guide::Running && on_s1;
    let milestones = use_memo(Shared(playground.run_rc()), |run| {
        Milestones::of(run.sim.trace())
    });
    let stage = first_run::stage(playground.fencing(), playground.position(), &milestones);
    let card = first_run::card(stage);
    let target = running.then(|| target(card.pointer, &milestones));
    let reveal = card.pointer == Pointer::ZombieWrite;
    // Again on every new run too: switching fencing draws the write's mark anew, without the
    // attribute.
    let run = Shared(playground.run_rc());
    use_effect_with(
        (target.clone(), playground.position(), run),
        move |(target, ..)| {
            browser::point_at(target.as_deref());
            // The write may lie below the fold on a phone: bring it above the transport bar.
            if let Some(target) = target.as_deref().filter(|_| reveal) {
                browser::reveal(target, TRANSPORT_CLEARANCE);
            }
        },
    );
    let welcome = use_welcome_back(address, here);
    let card = running.then(|| {
        let end = {
            let guide = guide.clone();
            Callback::from(move |()| guide.set(Guide::Ended))
        };
        card_view(stage, dispatch, navigate, &end)
    });
    FirstRun {
        card: card.or(welcome),
        begin,
    }
}

/// The selector of what `pointer` names on the page.
fn target(pointer: Pointer, milestones: &Milestones) -> String {
    match (pointer, milestones.zombie_write) {
        (Pointer::ZombieWrite, Some(write)) => format!(
            "[data-testid=\"timeline-main\"] [data-testid=\"event-mark\"][data-event-id=\"{}\"]",
            write.event
        ),
        _ => "[data-testid=\"step\"]".to_owned(),
    }
}

/// The card of `stage`, its choices and Skip.
fn card_view(
    stage: Stage,
    dispatch: &Callback<Action>,
    navigate: &Callback<Route>,
    end: &Callback<()>,
) -> Html {
    let card = first_run::card(stage);
    let choice = |choice: Choice| {
        let (dispatch, navigate, end) = (dispatch.clone(), navigate.clone(), end.clone());
        let (label, testid, class) = match choice {
            Choice::TurnFencingOn => ("Turn fencing on", "guided-fencing-on", "control primary"),
            Choice::ContinueLesson => (
                "Continue with the lesson",
                "guided-continue",
                "control primary",
            ),
            Choice::ExploreFreely => ("Explore freely", "guided-explore", "control"),
        };
        let onclick = Callback::from(move |_: MouseEvent| match choice {
            // What the setup bar's fencing switch does, through the one reducer.
            Choice::TurnFencingOn => dispatch.emit(Action::SetFencing(Fencing::On)),
            Choice::ContinueLesson => {
                end.emit(());
                navigate.emit(Route::Lesson {
                    id: first_run::FIRST_LESSON.to_owned(),
                    step: 0,
                });
            }
            Choice::ExploreFreely => end.emit(()),
        });
        html! { <button type="button" class={class} data-testid={testid} {onclick}>{ label }</button> }
    };
    html! {
        <section class="guided-start" data-testid="guided-start" data-stage={stage_word(stage)}
            aria-labelledby="guided-start-title">
            <h2 id="guided-start-title">{ card.title }</h2>
            <p aria-live="polite">{ glossed(card.text) }</p>
            <div class="guided-choices">
                { for card.choices.iter().map(|c| choice(*c)) }
                <button type="button" class="link guided-skip" data-testid="guided-skip"
                    onclick={end.reform(|_: MouseEvent| ())}>{ "Skip" }</button>
            </div>
        </section>
    }
}

/// The stage as a word, for `data-stage` (`docs/test-hooks.md`).
fn stage_word(stage: Stage) -> &'static str {
    match stage {
        Stage::Start => "start",
        Stage::Paused => "paused",
        Stage::OtherWrote => "other-wrote",
        Stage::Lost => "lost",
        Stage::Fenced => "fenced",
        Stage::Refused => "refused",
    }
}
