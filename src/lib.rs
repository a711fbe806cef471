//! # lockstep (the app)
//!
//! The browser front end of Lockstep: a Yew view over `lockstep-sim`. It shows a scenario's trace
//! event by event, with the lock service's row, the resource and the invariants as they stand
//! after the selected event.
//!
//! The app changes the simulation only through one reducer ([`state::Playground`]); components
//! render state and dispatch [`state::Action`]s. It must not compute anything the simulation
//! knows (who holds the lock, whether a write is stale): it reads the trace and the node states.

pub mod components;
pub mod layout;
pub mod run;
pub mod state;

use components::{
    controls::Controls, inspector::Inspector, scenario_picker::ScenarioPicker,
    trace_list::TraceList,
};
use state::Playground;
use yew::prelude::*;

/// The whole page.
#[component]
pub fn App() -> Html {
    let playground = use_reducer(Playground::default_scenario);
    let dispatch = playground.dispatcher();
    html! {
        <main class="app" data-testid="app">
            <header class="app-header">
                <h1 class="brand">{ "Lockstep" }</h1>
                <ScenarioPicker playground={playground.clone()} dispatch={dispatch.clone()} />
                <p class="scenario">
                    <span class="scenario-name" data-testid="scenario-name">{ playground.title() }</span>
                    <span class="seed">{ format!("seed {}", playground.seed()) }</span>
                </p>
            </header>
            <p class="summary">{ playground.summary() }</p>
            <div class="workspace">
                <div class="main-column">
                    <TraceList playground={playground.clone()} />
                    <Controls playground={playground.clone()} {dispatch} />
                </div>
                <aside class="inspector-panel" aria-label="Inspector">
                    <Inspector playground={playground.clone()} />
                </aside>
            </div>
            <footer class="app-footer">
                <span>{ "trace hash " }<code data-testid="trace-hash">{ playground.full_hash() }</code></span>
                <span>{ "Same scenario, seed and actions give the same trace, here and in the CLI." }</span>
            </footer>
        </main>
    }
}
