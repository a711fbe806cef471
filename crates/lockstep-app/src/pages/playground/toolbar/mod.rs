//! The setup bar, one row: which scenario (and, on a phone, a "Setup" toggle that shows the
//! rest), which seed (`seed_field.rs`), fencing on or off (a
//! switch), one "Compare with" choice (fencing switched or another service), the share menu (`share_menu.rs`: a link or embed code), and a "More" menu
//! (`more_menu.rs`) with what is used less often — import (`import.rs`), export (`export.rs`),
//! building a scenario of one's own, the shortcut sheet. A file that cannot be read, like a bad
//! link, becomes a message; the current run stays as it was.

mod export;
mod import;
mod more_menu;
mod seed_field;

use crate::components::Current;
use crate::components::fencing_switch::FencingSwitch;
use crate::pages::playground::compare_services::CompareChoice;
use crate::pages::playground::scenario_picker::ScenarioPicker;
use crate::pages::playground::share_menu::{Copied, ShareMenu, copied_view};
use crate::state::{Action, Compare, Origin};
use lockstep_sim::analysis::chaos::ChaosBackend;
use lockstep_sim::models::resource::Fencing;
use more_menu::MoreMenu;
use seed_field::SeedField;
use yew::prelude::*;

/// What the bar shows comes in its own props; the playground itself is read only when a menu
/// item is chosen, so a Step does not render the bar again.
#[derive(Properties, PartialEq)]
pub struct ToolbarProps {
    pub playground: Current,
    pub origin: Origin,
    pub title: AttrValue,
    pub seed: u64,
    /// `None` when the resource has no fencing to switch.
    pub fencing: Option<Fencing>,
    pub compare: Compare,
    /// The lock service the open scenario runs on.
    pub service: Option<ChaosBackend>,
    pub dispatch: Callback<Action>,
    pub on_help: Callback<()>,
    pub on_build: Callback<()>,
}

#[component]
pub fn Toolbar(props: &ToolbarProps) -> Html {
    let dispatch = &props.dispatch;
    let copied = use_state(|| None::<Copied>);
    let on_copied = {
        let copied = copied.clone();
        Callback::from(move |made: Copied| copied.set(Some(made)))
    };
    let current = match &props.origin {
        Origin::BuiltIn(id) => Some(AttrValue::Static(id)),
        Origin::Chaos(_) | Origin::Custom => None,
    };
    let fencing = props.fencing;
    // On a phone the bar is one row, the scenario and this toggle; the rest shows when asked for.
    let setup_open = use_state(|| false);
    let on_setup = {
        let setup_open = setup_open.clone();
        Callback::from(move |_: MouseEvent| setup_open.set(!*setup_open))
    };
    html! {
        <div class={classes!("toolbar", setup_open.then_some("setup-open"))} role="toolbar" aria-label="Scenario">
            <ScenarioPicker {current} custom_title={props.title.clone()} dispatch={dispatch.clone()} />
            <button type="button" class="tool setup-toggle" data-testid="setup-toggle"
                aria-expanded={setup_open.to_string()} onclick={on_setup}>{ "Setup" }</button>
            <SeedField seed={props.seed} dispatch={dispatch.clone()} />
            if let Some(fencing) = fencing {
                <FencingSwitch {fencing} dispatch={dispatch.clone()} testid="fencing-toggle" />
            }
            // One control for comparing: fencing switched is one of its choices.
            <CompareChoice compare={props.compare} service={props.service}
                fencing={fencing.is_some()} dispatch={dispatch.clone()} />
            <ShareMenu playground={props.playground.clone()} on_copied={on_copied} />
            <MoreMenu playground={props.playground.clone()} compare={props.compare}
                dispatch={dispatch.clone()} on_help={props.on_help.clone()} on_build={props.on_build.clone()} />
            { copied.as_ref().map(copied_view) }
        </div>
    }
}
