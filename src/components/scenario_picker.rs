//! The scenario menu: every built-in scenario, failures first, then the alternatives that need
//! no lock. Choosing one opens it at its start. It renders only when the open scenario changes.

use crate::state::Action;
use lockstep_sim::catalogue::{self, BuiltIn};
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
    let dispatch = props.dispatch.clone();
    let onchange = Callback::from(move |event: Event| {
        let select: HtmlSelectElement = event.target_unchecked_into();
        let chosen = select.value();
        if let Some(built_in) = catalogue::BUILT_IN.iter().find(|b| b.id == chosen) {
            dispatch.emit(Action::Open(built_in.id));
        }
    });
    // Parsing every scenario for its title once, not on every render (every Step renders).
    let titles = use_memo((), |_| {
        catalogue::BUILT_IN
            .iter()
            .map(|b| (*b, b.load().map_or_else(|_| b.id.to_owned(), |s| s.title)))
            .collect::<Vec<(BuiltIn, String)>>()
    });
    let current = props.current.clone().unwrap_or_default();
    let option = |(built_in, title): &(BuiltIn, String)| {
        html! {
            <option value={built_in.id} selected={built_in.id == current}>{ title.clone() }</option>
        }
    };
    let is_alternative = |entry: &&(BuiltIn, String)| entry.0.id.starts_with('a');
    html! {
        <label class="picker">
            <span class="picker-label">{ "Scenario" }</span>
            <select data-testid="scenario-picker" {onchange}>
                if props.current.is_none() {
                    <option value="" selected=true disabled=true>{ format!("Your own: {}", props.custom_title) }</option>
                }
                <optgroup label="How locks fail">
                    { for titles.iter().filter(|e| !is_alternative(e)).map(option) }
                </optgroup>
                <optgroup label="Alternatives that need no lock">
                    { for titles.iter().filter(is_alternative).map(option) }
                </optgroup>
            </select>
        </label>
    }
}
