//! The embed view (`#embed&…`, see [`lockstep_view::embed_link`]): the story alone, for another site's
//! page — a one-line caption with "Open in Lockstep ↗", the timeline (the stage beside it when
//! the frame is wide enough), the "now" line and the chosen controls, in the flow of a frame as
//! tall as its content. No navigation, no setup bar, no panels. Anything wrong with the address
//! or the scenario is said inside the frame, naming the parameter; the frame is never blank.
//!
//! It tells the host page its height as it changes and plays only while watched
//! ([`crate::embed::hooks`]). Its theme is this view's only: the visitor's stored choice for the
//! full app is left alone. Links out of the embed open the full app in a new tab.

use crate::components::Shared;
use crate::components::narration::NowLine;
use crate::components::stage::{STEP_GLIDE_MS, Stage};
use crate::components::timeline::Timeline;
use crate::embed::frame as embed_frame;
use crate::embed::frame_parts::{open_link, problem};
use crate::embed::hooks::{use_embed_size, use_watched_play};
use crate::embed::lesson::EmbedLesson;
use crate::embed::state::{EmbedState, Phase};
use crate::embed::transport::EmbedTransport;
use crate::hooks::{use_autoplay, use_keyboard};
use crate::link::{self, fencing_word};
use crate::platform::browser;
use crate::platform::library;
use crate::state::{Action, Play};
use gloo_events::EventListener;
use lockstep_view::embed_link::{ControlSet, EmbedError, EmbedSpec, Shows};
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EmbedViewProps {
    pub embed: Result<EmbedSpec, EmbedError>,
}

#[component]
pub fn EmbedView(props: &EmbedViewProps) -> Html {
    let root = use_node_ref();
    use_embed_size(root.clone());
    // A wrong address keeps the theme index.html read from it before the first paint.
    let theme = props.embed.as_ref().ok().map(|spec| spec.theme);
    use_effect_with(theme, |theme| {
        if let Some(theme) = theme {
            embed_frame::show_theme(theme.word());
        }
    });
    // The embed is the page's address: another address is another page.
    use_effect_with((), |_| {
        let listener = web_sys::window()
            .map(|window| EventListener::new(&window, "hashchange", |_| browser::reload()));
        move || drop(listener)
    });
    let body = match &props.embed {
        Err(error) => problem(&error.to_string()),
        Ok(spec) => match &spec.shows {
            Shows::Moment { .. } => {
                html! { <EmbedMoment spec={spec.clone()} root={root.clone()} /> }
            }
            Shows::Lesson { id, step } => html! {
                <EmbedLesson id={id.clone()} step={*step} caption={spec.caption.clone()} />
            },
        },
    };
    html! {
        <main class="embed" ref={root} data-testid="embed" onclick={Callback::from(links_out)}>
            { body }
        </main>
    }
}

/// A link inside the embed to another page of the app (a lesson's "All lessons", a source)
/// opens the full app in a new tab instead of replacing the embed.
fn links_out(event: MouseEvent) {
    let anchor = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|element| element.closest("a").ok().flatten());
    let Some(anchor) = anchor else {
        return;
    };
    if anchor.get_attribute("target").is_some() {
        return;
    }
    if let Some(fragment) = anchor
        .get_attribute("href")
        .and_then(|href| href.strip_prefix('#').map(str::to_owned))
    {
        event.prevent_default();
        if let Some(window) = web_sys::window() {
            let _ = window.open_with_url_and_target(&browser::link_with(&fragment), "_blank");
        }
    }
}

#[derive(Properties, PartialEq)]
struct EmbedMomentProps {
    spec: EmbedSpec,
    root: NodeRef,
}

/// A moment of a run, its excerpt and its controls.
#[component]
fn EmbedMoment(props: &EmbedMomentProps) -> Html {
    let spec = &props.spec;
    let state = use_reducer(|| EmbedState::loading(spec.excerpt, spec.opening()));
    let dispatch = {
        let handle = state.dispatcher();
        use_callback((), move |action: Action, _| handle.dispatch(action))
    };
    {
        let dispatch = dispatch.clone();
        let setup = match &spec.shows {
            Shows::Moment { setup, .. } => setup.clone(),
            Shows::Lesson { .. } => String::new(),
        };
        let opening = spec.opening();
        use_effect_with((), move |_| {
            let (shown, compared) = (
                link::built_in_named(&setup),
                link::compared_built_in(&setup),
            );
            let restore = move || match link::decode(&setup) {
                Ok(mut moment) => {
                    moment.position = opening;
                    Action::Restore(Box::new(moment))
                }
                Err(error) => Action::Report(error.to_string()),
            };
            library::with_files_of_link(shown, compared, dispatch, restore);
        });
    }
    let playground = state.playground().cloned();
    let play = playground.as_ref().map_or(Play::Paused, |p| p.play());
    let speed = playground
        .as_ref()
        .map_or(crate::state::Speed::DEFAULT, |p| p.speed());
    use_autoplay(play, speed, dispatch.clone());
    // The playground's keys, for the controls shown: none with `controls=none`, the transport's
    // with `controls=transport`.
    let keys = {
        let dispatch = dispatch.clone();
        use_callback(spec.controls, move |action: Action, controls| {
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
    };
    use_keyboard(keys, Callback::noop(), Callback::noop(), None);
    use_watched_play(
        props.root.clone(),
        spec.autoplay,
        playground.is_some(),
        play,
        dispatch.clone(),
    );
    let (playground, bounds) = match (&state.phase, playground, state.bounds()) {
        (Phase::Failed(text), _, _) => return problem(text),
        (Phase::Ready(_), Some(playground), Some(bounds)) => (playground, bounds),
        _ => {
            return html! {
                <p class="embed-loading muted" role="status" data-testid="embed-loading" aria-busy="true">
                    { "Loading the scenario…" }
                </p>
            };
        }
    };
    let caption = spec
        .caption
        .clone()
        .unwrap_or_else(|| playground.title().to_owned());
    let open = playground
        .moment()
        .map(|moment| browser::link_with(&link::encode(&moment)))
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
            <div class="story embed-story">
                <Timeline layout={Shared(playground.layout().clone())} sim={Shared(playground.sim_rc())}
                    position={playground.position()} now={playground.now().0}
                    selection={playground.selection()} dispatch={dispatch.clone()} name="main"
                    scope={playground.scenario_id().to_owned()} caption={timeline_caption} />
                <Stage layout={Shared(playground.layout().clone())} sim={Shared(playground.sim_rc())}
                    position={playground.position()} now={playground.now().0}
                    selection={playground.selection()} dispatch={dispatch.clone()} {glide_ms} />
                <NowLine sim={Shared(playground.sim_rc())} offers_step={spec.controls != ControlSet::None} />
            </div>
            { for twin }
            if spec.controls != ControlSet::None {
                <EmbedTransport playground={playground.clone()} {bounds} controls={spec.controls}
                    dispatch={dispatch.clone()} />
            }
        </>
    }
}
