//! The setup bar's "More" menu: what is used less often — import, export, building a scenario
//! of one's own, the shortcut sheet. Choosing an item closes the menu, as a menu does.

use super::export;
use super::import::use_import;
use crate::components::Current;
use crate::components::menu;
use crate::state::{Action, Compare, Playground};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct MoreMenuProps {
    pub playground: Current,
    pub compare: Compare,
    pub dispatch: Callback<Action>,
    pub on_help: Callback<()>,
    pub on_build: Callback<()>,
}

#[component]
pub fn MoreMenu(props: &MoreMenuProps) -> Html {
    let more_menu = use_node_ref();
    menu::use_keep_in_window(&more_menu);
    let onimport = use_import(&props.dispatch, &more_menu);
    // Exports are computed when chosen, not on every render: a long trace's export is large.
    let on_export = |export: fn(&Playground, &Callback<Action>)| {
        let dispatch = props.dispatch.clone();
        let playground = props.playground.clone();
        let more_menu = more_menu.clone();
        Callback::from(move |_: MouseEvent| {
            menu::close(&more_menu);
            export(&playground, &dispatch);
        })
    };
    let closing = |then: &Callback<()>| {
        let more_menu = more_menu.clone();
        then.reform(move |_: MouseEvent| menu::close(&more_menu))
    };
    html! {
        <details class="more" ref={more_menu.clone()} onkeydown={menu::escape_closes(&more_menu)}>
            <summary class="tool" data-testid="more-menu">{ "More" }</summary>
            <div class="more-menu">
                <label class="tool file">
                    { "Import a scenario or trace…" }
                    <input type="file" accept=".json,application/json" data-testid="import" onchange={onimport} />
                </label>
                <button type="button" class="tool" data-testid="export-scenario" onclick={on_export(export::scenario)}>{ "Export the scenario (JSON)" }</button>
                if let Compare::Service(service) = props.compare {
                    <button type="button" class="tool" data-testid="export-twin-scenario" onclick={on_export(export::twin)}>
                        { format!("Export the twin's scenario on {} (JSON)", service.label()) }</button>
                }
                <button type="button" class="tool" data-testid="export-trace" onclick={on_export(export::trace)}>{ "Export the trace (JSON)" }</button>
                <button type="button" class="tool" data-testid="export-svg" onclick={on_export(export::svg)}>{ "Export the timeline (SVG)" }</button>
                <button type="button" class="tool" data-testid="build-scenario" onclick={closing(&props.on_build)}>{ "Build your own scenario…" }</button>
                <button type="button" class="tool" data-testid="help" onclick={closing(&props.on_help)} title="Keyboard shortcuts (?)">{ "Keyboard shortcuts" }</button>
            </div>
        </details>
    }
}
