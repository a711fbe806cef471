//! The scenario menu: every built-in scenario, failures first, then the alternatives that need
//! no lock. Choosing one loads its file if need be, then opens it at its start. The menu shows
//! the open scenario until the chosen one has opened, so a failed load leaves it telling the
//! truth. It renders only when the open scenario changes.

use crate::platform::library;
use crate::state::Action;
use lockstep_sim::scenario::catalogue::{self, Entry};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ScenarioPickerProps {
    /// The open built-in scenario's id, or `None` for the user's own (built or imported).
    pub current: Option<AttrValue>,
    /// The title of the user's own scenario, shown as the menu's choice while it is open.
    pub custom_title: AttrValue,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn ScenarioPicker(props: &ScenarioPickerProps) -> Html {
    let select_ref = use_node_ref();
    let current = props.current.clone().unwrap_or_default();
    let onchange = {
        let dispatch = props.dispatch.clone();
        let current = current.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            let chosen = select.value();
            // Until it opens, the menu names what is open.
            select.set_value(&current);
            if let Some(entry) = catalogue::entry(&chosen) {
                let id = entry.id;
                library::with_built_in(id, dispatch.clone(), move |scenario| {
                    Action::Open(id, Box::new((*scenario).clone()))
                });
            }
        })
    };
    {
        let select_ref = select_ref.clone();
        use_effect_with(current.clone(), move |current| {
            if let Some(select) = select_ref.cast::<HtmlSelectElement>() {
                select.set_value(current);
            }
        });
    }
    let option = |entry: &Entry| {
        html! {
            <option value={entry.id} selected={entry.id == current}>{ entry.title }</option>
        }
    };
    let is_alternative = |entry: &&Entry| entry.id.starts_with('a');
    html! {
        <label class="picker">
            <span class="picker-label">{ "Scenario" }</span>
            <select data-testid="scenario-picker" ref={select_ref} {onchange}>
                if props.current.is_none() {
                    <option value="" selected=true disabled=true>{ format!("Your own: {}", props.custom_title) }</option>
                }
                <optgroup label="How locks fail">
                    { for catalogue::INDEX.iter().filter(|e| !is_alternative(e)).map(option) }
                </optgroup>
                <optgroup label="Alternatives that need no lock">
                    { for catalogue::INDEX.iter().filter(is_alternative).map(option) }
                </optgroup>
            </select>
        </label>
    }
}
