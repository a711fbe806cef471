//! The scenario menu: every built-in scenario, failures first, then the alternatives that need
//! no lock. Choosing one opens it at its start.

use crate::state::{Action, Playground};
use lockstep_sim::catalogue::{self, BuiltIn};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ScenarioPickerProps {
    pub playground: UseReducerHandle<Playground>,
    pub dispatch: UseReducerDispatcher<Playground>,
}

#[component]
pub fn ScenarioPicker(props: &ScenarioPickerProps) -> Html {
    let dispatch = props.dispatch.clone();
    let onchange = Callback::from(move |event: Event| {
        let select: HtmlSelectElement = event.target_unchecked_into();
        let chosen = select.value();
        if let Some(built_in) = catalogue::BUILT_IN.iter().find(|b| b.id == chosen) {
            dispatch.dispatch(Action::Open(built_in.id));
        }
    });
    let current = props.playground.scenario_id().to_owned();
    let option = |built_in: &BuiltIn| {
        let title = built_in
            .load()
            .map_or_else(|_| built_in.id.to_owned(), |s| s.title);
        html! {
            <option value={built_in.id} selected={built_in.id == current}>{ title }</option>
        }
    };
    let is_alternative = |b: &&BuiltIn| b.id.starts_with('a');
    html! {
        <label class="picker">
            <span class="picker-label">{ "Scenario" }</span>
            <select data-testid="scenario-picker" {onchange}>
                <optgroup label="How locks fail">
                    { for catalogue::BUILT_IN.iter().filter(|b| !is_alternative(b)).map(option) }
                </optgroup>
                <optgroup label="Alternatives that need no lock">
                    { for catalogue::BUILT_IN.iter().filter(is_alternative).map(option) }
                </optgroup>
            </select>
        </label>
    }
}
