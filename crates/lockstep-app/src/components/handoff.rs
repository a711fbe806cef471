//! What the story binary shows where the full binary's page or dialog will be: a loading line
//! ("Loading the lessons… 37 % of 412 KB") while the full binary arrives, then nothing — the
//! full binary takes the page over (`platform::handoff`). If the fetch fails, it says why and
//! offers to try again; the playground stays as it was, one click away.

use crate::platform::handoff;
use lockstep_view::split::{Feature, progress_words};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct HandoffProps {
    pub feature: Feature,
    /// The playground's link, which the full binary restores.
    pub playground: Option<AttrValue>,
    /// The dialog the full binary opens on arrival (`builder`).
    #[prop_or_default]
    pub open: Option<AttrValue>,
    /// Back to the playground, as it was, after a failure.
    pub on_back: Callback<()>,
}

/// Where the handover stands.
#[derive(Clone, PartialEq)]
enum Stage {
    Loading(String),
    Failed(String),
}

#[component]
pub fn Handoff(props: &HandoffProps) -> Html {
    let stage = use_state(|| Stage::Loading(String::new()));
    let attempt = use_state(|| 0_u32);
    {
        let (stage, playground, open) =
            (stage.clone(), props.playground.clone(), props.open.clone());
        use_effect_with(*attempt, move |_| {
            handoff::leave(playground.as_deref(), open.as_deref());
            stage.set(Stage::Loading(String::new()));
            wasm_bindgen_futures::spawn_local(async move {
                let shown = stage.clone();
                let why = handoff::to_full(move |received, total| {
                    shown.set(Stage::Loading(progress_words(received, total)));
                })
                .await;
                if !why.is_empty() {
                    stage.set(Stage::Failed(why));
                }
            });
        });
    }
    let what = props.feature.what();
    match &*stage {
        Stage::Loading(progress) => html! {
            <p class="notice loading handoff" role="status" data-testid="handoff-loading">
                { format!("Loading {what}… {progress}") }
            </p>
        },
        Stage::Failed(why) => {
            let retry = Callback::from(move |_: MouseEvent| attempt.set(*attempt + 1));
            let back = props.on_back.reform(|_: MouseEvent| ());
            html! {
                <div class="notice problem handoff" role="alert" data-testid="handoff-problem">
                    <p>{ format!("{} could not be loaded: {why}.", capitalised(what)) }</p>
                    <p>{ "The playground is as you left it. Check your connection and try again." }</p>
                    <p>
                        <button type="button" class="tool" data-testid="handoff-retry" onclick={retry}>{ "Try again" }</button>
                        <button type="button" class="tool" data-testid="handoff-back" onclick={back}>{ "Back to the playground" }</button>
                    </p>
                </div>
            }
        }
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}
