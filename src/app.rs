//! The page: the setup bar, the timeline (and its twin when comparing), the transport, the
//! narration, the action panel and the inspector, plus the shortcut sheet and the builder.

use crate::components::Shared;
use crate::components::actions::Actions;
use crate::components::builder_form::BuilderForm;
use crate::components::controls::Controls;
use crate::components::inspector::{Inspector, invariant_list};
use crate::components::narration::Narration;
use crate::components::timeline::Timeline;
use crate::components::toolbar::Toolbar;
use crate::hooks::{
    SHORTCUTS, initial_playground, use_autoplay, use_keyboard, use_pause_when_hidden, use_url_sync,
};
use crate::link::fencing_word;
use crate::state::{Action, Notice};
use yew::prelude::*;

#[component]
pub fn App() -> Html {
    let playground = use_reducer(initial_playground);
    let dispatch = {
        let handle = playground.dispatcher();
        Callback::from(move |action: Action| handle.dispatch(action))
    };
    let help = use_state(|| false);
    let building = use_state(|| false);
    let toggle_help = {
        let help = help.clone();
        Callback::from(move |()| help.set(!*help))
    };
    let open_builder = {
        let building = building.clone();
        Callback::from(move |()| building.set(true))
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
    use_keyboard(dispatch.clone(), toggle_help.clone(), close_dialogs.clone());
    use_url_sync(&playground, dispatch.clone());

    let notice = playground.notice().map(|notice| {
        let dismiss = dispatch.reform(|_: MouseEvent| Action::Dismiss);
        let (class, role, text) = match notice {
            Notice::Problem(text) => ("notice problem", "alert", text.clone()),
            Notice::Info(text) => ("notice info", "status", text.clone()),
        };
        html! {
            <div class={class} role={role} data-testid="notice">
                <span>{ text }</span>
                <button type="button" class="link" onclick={dismiss} aria-label="Dismiss this message">{ "Dismiss" }</button>
            </div>
        }
    });
    let main_caption = match playground.fencing() {
        Some(fencing) => format!("Timeline · fencing {}", fencing_word(fencing)),
        None => "Timeline".to_owned(),
    };
    let twin = playground.twin().map(|twin| {
        let violated = twin.at.trace().last().map(|e| e.violated).unwrap_or_default();
        let now = twin.at.trace().last().map_or(0, |e| e.time.0);
        html! {
            <div class="twin" data-testid="twin">
                <Timeline layout={Shared(twin.layout.clone())} sim={Shared(twin.at.clone())} position={twin.at.trace().len()}
                    now={now} selection={playground.selection()} dispatch={dispatch.clone()} name="twin"
                    scope={playground.scenario_id().to_owned()}
                    caption={format!("The same run with fencing {} (stepped to the same time)", fencing_word(twin.fencing))} />
                <section class="card twin-invariants" data-testid="twin-invariants">
                    <h2>{ format!("invariants now, fencing {}", fencing_word(twin.fencing)) }</h2>
                    { invariant_list(violated) }
                </section>
            </div>
        }
    });
    let close = close_dialogs.reform(|_: MouseEvent| ());
    html! {
        <main class="app" data-testid="app">
            <header class="app-header">
                <h1 class="brand">{ "Lockstep" }</h1>
                <Toolbar playground={playground.clone()} dispatch={dispatch.clone()}
                    on_help={toggle_help.clone()} on_build={open_builder} />
            </header>
            <p class="scenario">
                <span class="scenario-name" data-testid="scenario-name">{ playground.title() }</span>
                <span class="seed">{ format!("seed {}", playground.seed()) }</span>
            </p>
            <p class="summary">{ playground.summary() }</p>
            { for notice }
            <div class="workspace">
                <div class="main-column">
                    <Timeline layout={Shared(playground.layout().clone())} sim={Shared(playground.sim_rc())}
                        position={playground.position()} now={playground.now().0}
                        selection={playground.selection()} dispatch={dispatch.clone()} name="main"
                        scope={playground.scenario_id().to_owned()}
                        caption={main_caption} />
                    { for twin }
                    <Controls playground={playground.clone()} dispatch={dispatch.clone()} />
                    <Narration playground={playground.clone()} dispatch={dispatch.clone()} />
                </div>
                <aside class="inspector-panel" aria-label="Act and inspect">
                    <Actions playground={playground.clone()} dispatch={dispatch.clone()} />
                    <Inspector playground={playground.clone()} />
                </aside>
            </div>
            <footer class="app-footer">
                <span>{ "trace hash " }<code data-testid="trace-hash">{ playground.full_hash() }</code></span>
                <span>{ "Same scenario, seed and actions give the same trace, here and in the CLI." }</span>
            </footer>
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
