//! The embed view (`#embed&…`, see [`lockstep_view::link::embed`]): the story alone, for another site's
//! page — a one-line caption with "Open in Lockstep ↗", the timeline (the stage beside it when
//! the frame is wide enough), the "now" line and the chosen controls, in the flow of a frame as
//! tall as its content. No navigation, no setup bar, no panels. Anything wrong with the address
//! or the scenario is said inside the frame, naming the parameter; the frame is never blank.
//!
//! It tells the host page its height as it changes and plays only while watched
//! ([`crate::embed::hooks`]). Its theme is this view's only: the visitor's stored choice for the
//! full app is left alone. Links out of the embed open the full app in a new tab.
//!
//! A moment of a run is `moment.rs`; a whole lesson, `lesson.rs`; a recorded real run,
//! `real_run.rs`.

use crate::embed::frame as embed_frame;
use crate::embed::frame_parts::problem;
use crate::embed::hooks::use_embed_size;
#[cfg(feature = "full")]
use crate::embed::lesson::EmbedLesson;
use crate::embed::moment::EmbedMoment;
#[cfg(feature = "full")]
use crate::embed::real_run::EmbedRealRun;
use crate::platform::browser;
use gloo_events::EventListener;
use lockstep_view::link::embed::{EmbedSpec, EmbedTheme, Shows};
use lockstep_view::link::error::LinkError;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EmbedViewProps {
    pub embed: Result<EmbedSpec, LinkError>,
}

#[component]
pub fn EmbedView(props: &EmbedViewProps) -> Html {
    let root = use_node_ref();
    use_embed_size(root.clone());
    // A wrong address keeps the theme index.html read from it before the first paint, and so
    // does an embed without `theme=`: index.html gave it the host page's theme where the host
    // script told it (the frame's name, then its messages), else the system's.
    let theme = props
        .embed
        .as_ref()
        .ok()
        .map(|spec| spec.theme)
        .filter(|theme| *theme != EmbedTheme::Auto);
    use_effect_with(theme, |theme| {
        if let Some(theme) = theme {
            embed_frame::show_theme(theme.word());
        }
    });
    // The embed is the page's address: another address is another page.
    use_effect_with((), |_| {
        let listener = crate::platform::browser::window()
            .map(|window| EventListener::new(&window, "hashchange", |_| browser::reload()));
        move || drop(listener)
    });
    let body = match &props.embed {
        Err(error) => problem(&error.to_string()),
        Ok(spec) => match &spec.shows {
            Shows::Moment { .. } => {
                html! { <EmbedMoment spec={spec.clone()} root={root.clone()} /> }
            }
            Shows::Lesson { .. } => lesson(spec),
            Shows::Real { .. } => real_run(spec),
        },
    };
    html! {
        <main class="embed" ref={root} data-testid="embed" onclick={Callback::from(links_out)}>
            { body }
        </main>
    }
}

/// A whole lesson: the full binary's (the page's loader starts it for such an address).
#[cfg(feature = "full")]
fn lesson(spec: &EmbedSpec) -> Html {
    let Shows::Lesson { id, step } = &spec.shows else {
        return Html::default();
    };
    html! { <EmbedLesson id={id.clone()} step={*step} caption={spec.caption.clone()} /> }
}

/// A recorded real run beside its simulation: the full binary's, as a lesson is.
#[cfg(feature = "full")]
fn real_run(spec: &EmbedSpec) -> Html {
    let Shows::Real { recording } = &spec.shows else {
        return Html::default();
    };
    html! { <EmbedRealRun recording={recording.clone()} caption={spec.caption.clone()} /> }
}

/// In the story binary, the handover to the full one, should the loader have started the story.
#[cfg(not(feature = "full"))]
fn lesson(_spec: &EmbedSpec) -> Html {
    handover(lockstep_view::split::Feature::EmbeddedLesson)
}

#[cfg(not(feature = "full"))]
fn real_run(_spec: &EmbedSpec) -> Html {
    handover(lockstep_view::split::Feature::RealRuns)
}

#[cfg(not(feature = "full"))]
fn handover(feature: lockstep_view::split::Feature) -> Html {
    use crate::components::handoff::Handoff;
    html! {
        <Handoff {feature} playground={None::<AttrValue>}
            on_back={Callback::from(|()| browser::reload())} />
    }
}

/// A link inside the embed to another page of the app (a lesson's "All lessons", a source)
/// opens the full app in a new tab instead of replacing the embed: every link is written from
/// the frame's page (`crate::link::Here`), and opened where the browser resolves it.
fn links_out(event: MouseEvent) {
    let anchor = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|element| element.closest("a").ok().flatten());
    let Some(anchor) = anchor else {
        return;
    };
    // A link the embed follows itself (a lesson's Next) has been handled already.
    if anchor.get_attribute("target").is_some() || event.default_prevented() {
        return;
    }
    let Ok(anchor) = anchor.dyn_into::<web_sys::HtmlAnchorElement>() else {
        return;
    };
    event.prevent_default();
    if let Some(window) = crate::platform::browser::window() {
        let _ = window.open_with_url_and_target(&anchor.href(), "_blank");
    }
}
