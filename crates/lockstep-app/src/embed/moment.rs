//! An embed of a moment of a run (`#embed&…` with a setup): the run loaded from the address,
//! its excerpt, the story (timeline, stage, "now" line, a twin's timeline) and the chosen
//! controls. Only the keys of the controls shown work; it plays only while watched.

use crate::components::Shared;
use crate::components::stage::{STEP_GLIDE_MS, Stage};
use crate::components::timeline::{FirstWidth, Timeline};
use crate::embed::frame_parts::{open_link, problem};
use crate::embed::hooks::use_watched_play;
use crate::embed::state::{EmbedState, Phase};
use crate::embed::steady_now::SteadyNowLine;
use crate::embed::transport::EmbedTransport;
use crate::hooks::{use_autoplay, use_keyboard};
use crate::link;
use crate::platform::library;
use crate::state::{Action, Play};
use lockstep_view::link::embed::{Bounds, ControlSet, EmbedSpec, Shows};
use lockstep_view::link::fencing::fencing_word;
use lockstep_view::state::Playground;
use std::rc::Rc;
use yew::prelude::*;

/// The plot's width in a frame 640 px wide (a blog's column), where the stage is under the
/// timeline: the width the build draws an embed's document at.
const EMBED_PLOT_WIDTH: f64 = 476.0;

#[derive(Properties, PartialEq)]
pub struct EmbedMomentProps {
    pub spec: EmbedSpec,
    /// The embed's root element, watched to play only while in view.
    pub root: NodeRef,
}

/// A moment of a run, its excerpt and its controls.
#[component]
pub fn EmbedMoment(props: &EmbedMomentProps) -> Html {
    let spec = &props.spec;
    let state = use_reducer(|| first_state(spec));
    let dispatch = {
        let handle = state.dispatcher();
        use_callback((), move |action: Action, _| handle.dispatch(action))
    };
    use_setup(spec, matches!(state.phase, Phase::Loading), &dispatch);
    let playground = state.playground().cloned();
    let play = playground.as_ref().map_or(Play::Paused, |p| p.play());
    let speed = playground
        .as_ref()
        .map_or(crate::state::Speed::DEFAULT, |p| p.speed());
    use_autoplay(play, speed, dispatch.clone());
    let keys = use_shown_keys(spec.controls, &dispatch);
    use_keyboard(keys, Callback::noop(), Callback::noop(), None);
    use_watched_play(
        props.root.clone(),
        spec.autoplay,
        playground.is_some(),
        play,
        dispatch.clone(),
    );
    match (&state.phase, playground, state.bounds()) {
        (Phase::Failed(text), _, _) => problem(text),
        (Phase::Ready(_), Some(playground), Some(bounds)) => {
            moment(spec, &playground, bounds, &dispatch)
        }
        // Still loading, or ready but not yet read back as a playground within its bounds.
        (Phase::Loading | Phase::Ready(_), _, _) => html! {
            <p class="embed-loading muted" role="status" data-testid="embed-loading" aria-busy="true">
                { "Loading the scenario…" }
            </p>
        },
    }
}

/// The setup an embed of a moment shows (the address without its embed keys).
fn setup_of(spec: &EmbedSpec) -> String {
    match &spec.shows {
        Shows::Moment { setup, .. } => setup.clone(),
        Shows::Lesson { .. } | Shows::Real { .. } => String::new(),
    }
}

/// What opens the run `setup` sets up at `opening`: the moment it describes, or why it cannot.
fn restore(setup: &str, opening: Option<usize>) -> Action {
    match link::decode(setup) {
        Ok(mut moment) => {
            moment.position = opening;
            Action::Restore(Box::new(moment))
        }
        Err(error) => Action::Report(error.to_string()),
    }
}

/// The embed as it first renders: the run already open when the built-in scenarios its setup
/// names are in hand (in the binary, or loaded by the page before it mounted), so the build's
/// render (issue 41) and the wasm's first render show the story, not a loading line; loading
/// otherwise, until [`use_setup`] has the files.
fn first_state(spec: &EmbedSpec) -> EmbedState {
    let loading = EmbedState::loading(spec.excerpt, spec.opening());
    let setup = setup_of(spec);
    let in_hand = [
        link::built_in_named(&setup),
        link::compared_built_in(&setup),
    ]
    .into_iter()
    .flatten()
    .all(|id| library::loaded(id).is_some());
    if in_hand {
        loading.after(restore(&setup, spec.opening()))
    } else {
        loading
    }
}

/// Loads the run the address sets up (its scenario files first), once, at its opening position,
/// if the first render was `waiting` for it (see [`first_state`]).
#[hook]
fn use_setup(spec: &EmbedSpec, waiting: bool, dispatch: &Callback<Action>) {
    let dispatch = dispatch.clone();
    let setup = setup_of(spec);
    let opening = spec.opening();
    use_effect_with((), move |_| {
        if waiting {
            let (shown, compared) = (
                link::built_in_named(&setup),
                link::compared_built_in(&setup),
            );
            library::with_files_of_link(shown, compared, dispatch, move || {
                restore(&setup, opening)
            });
        }
    });
}

/// The playground's keys, for the controls shown: none with `controls=none`, the transport's
/// with `controls=transport`.
#[hook]
fn use_shown_keys(controls: ControlSet, dispatch: &Callback<Action>) -> Callback<Action> {
    let dispatch = dispatch.clone();
    use_callback(controls, move |action: Action, controls| {
        let shown = match controls {
            ControlSet::None => false,
            ControlSet::Transport => matches!(
                action,
                Action::Step
                    | Action::Back
                    | Action::Reset
                    | Action::SeekTo(_)
                    | Action::TogglePlay
            ),
            ControlSet::Full => true,
        };
        if shown {
            dispatch.emit(action);
        }
    })
}

/// The loaded moment: caption, story and controls.
fn moment(
    spec: &EmbedSpec,
    playground: &Rc<Playground>,
    bounds: Bounds,
    dispatch: &Callback<Action>,
) -> Html {
    let caption = spec
        .caption
        .clone()
        .unwrap_or_else(|| playground.title().to_owned());
    let open = playground
        .moment()
        .map(|moment| link::encode(&moment))
        .unwrap_or_default();
    let timeline_caption = match playground.fencing() {
        Some(fencing) => format!("Timeline · fencing {}", fencing_word(fencing)),
        None => "Timeline".to_owned(),
    };
    let glide_ms = match playground.play() {
        Play::Playing => playground.speed().tick_ms(),
        Play::Paused => STEP_GLIDE_MS,
    };
    let twin = playground.twin().map(|twin| {
        let now = twin.at.trace().last().map_or(0, |e| e.time.0);
        html! {
            <Timeline layout={Shared(twin.layout.clone())} sim={Shared(twin.at.clone())} position={twin.at.trace().len()}
                now={now} selection={playground.selection()} dispatch={dispatch.clone()} name="twin"
                scope={playground.scenario_id().to_owned()}
                caption={twin.caption()} />
        }
    });
    html! {
        <>
            <header class="embed-caption">
                <h1 class="embed-title" data-testid="embed-caption" title={caption.clone()}>{ caption }</h1>
                { open_link(open) }
            </header>
            // The build draws an embed's document for a blog's column; a frame of another
            // width redraws the plot once the app runs.
            <ContextProvider<FirstWidth> context={FirstWidth(EMBED_PLOT_WIDTH)}>
            <div class="story embed-story">
                <Timeline layout={Shared(playground.layout().clone())} sim={Shared(playground.sim_rc())}
                    position={playground.position()} now={playground.now().0}
                    selection={playground.selection()} dispatch={dispatch.clone()} name="main"
                    scope={playground.scenario_id().to_owned()} caption={timeline_caption} />
                <Stage layout={Shared(playground.layout().clone())} sim={Shared(playground.sim_rc())}
                    position={playground.position()} now={playground.now().0}
                    selection={playground.selection()} dispatch={dispatch.clone()} {glide_ms} />
                <SteadyNowLine sim={Shared(playground.sim_rc())} run={Shared(playground.run_rc())} {bounds}
                    offers_step={spec.controls != ControlSet::None} />
            </div>
            { for twin }
            </ContextProvider<FirstWidth>>
            if spec.controls != ControlSet::None {
                <EmbedTransport playground={playground.clone()} {bounds} controls={spec.controls}
                    dispatch={dispatch.clone()} />
            }
        </>
    }
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::{EmbedMoment, EmbedMomentProps};
    use lockstep_view::link::embed;
    use yew::{LocalServerRenderer, NodeRef};

    /// The embed at `fragment` as the build renders it.
    fn rendered(fragment: &str) -> String {
        let props = EmbedMomentProps {
            spec: embed::parse(fragment).expect("an embed's address"),
            root: NodeRef::default(),
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        tokio::task::LocalSet::new().block_on(
            &runtime,
            LocalServerRenderer::<EmbedMoment>::with_props(props).render(),
        )
    }

    #[test]
    fn a_built_in_scenario_renders_its_story_at_once_not_a_loading_line() {
        let page = rendered("embed&s=s2-gc-pause-fenced&at=12&compare=1");
        assert!(page.contains("data-testid=\"timeline-main\""), "{page}");
        assert!(page.contains("data-testid=\"timeline-twin\""), "{page}");
        assert!(!page.contains("embed-loading"), "{page}");
        // The link out leads to the moment from the page's folder (the root, given no other).
        assert!(
            page.contains("href=\"./s/s2-gc-pause-fenced/#at=12&amp;compare=1\""),
            "{page}"
        );
    }
}
