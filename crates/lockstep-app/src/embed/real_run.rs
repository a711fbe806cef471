//! A recorded real run in an embed (`#embed&real=<recording>`): the recording beside its
//! simulation, as the real-runs page shows it — the transport stepping both by one clock, the
//! two timelines, both verdicts — under a one-line caption with "Open in Lockstep ↗" (the
//! real-runs page at that recording). A recording that cannot be loaded is said in the frame.

use crate::components::Shared;
use crate::embed::frame_parts::{open_link, problem};
use crate::pages::real_runs::load;
use crate::pages::real_runs::view::RealRunView;
use lockstep_view::recorded::side_by_side::SideBySide;
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EmbedRealRunProps {
    pub recording: String,
    pub caption: Option<String>,
}

#[derive(Clone, PartialEq)]
enum Loaded {
    Loading,
    Failed(String),
    Ready(Shared<SideBySide>),
}

#[component]
pub fn EmbedRealRun(props: &EmbedRealRunProps) -> Html {
    let loaded = use_state(|| Loaded::Loading);
    {
        let loaded = loaded.clone();
        use_effect_with(props.recording.clone(), move |id| {
            let id = id.clone();
            spawn_local(async move {
                loaded.set(match load::recording(&id).await {
                    Ok(both) => Loaded::Ready(Shared(both)),
                    Err(why) => Loaded::Failed(why),
                });
            });
        });
    }
    // The run's own title is the view's heading, just below: the caption says what it is.
    let caption = props.caption.clone().unwrap_or_else(|| {
        "A run recorded against real servers, beside Lockstep's simulation".to_owned()
    });
    let open = format!("real={}", props.recording);
    html! {
        <>
            <header class="embed-caption">
                <h1 class="embed-title" data-testid="embed-caption" title={caption.clone()}>{ caption }</h1>
                { open_link(open) }
            </header>
            { match &*loaded {
                Loaded::Loading => html! {
                    <p class="embed-loading muted" role="status" data-testid="embed-loading" aria-busy="true">
                        { "Loading the recorded run…" }
                    </p>
                },
                Loaded::Failed(why) => problem(why.trim_end_matches('.')),
                Loaded::Ready(both) => html! { <RealRunView both={both.clone()} /> },
            } }
        </>
    }
}
