//! The action panel's buttons: each dispatches one intervention.

use crate::state::Action;
use lockstep_sim::world::intervention::Action as Act;
use yew::prelude::*;

/// A button's click handler that dispatches the intervention `act`.
pub fn intervene(dispatch: &Callback<Action>, act: Act<String>) -> Callback<MouseEvent> {
    let dispatch = dispatch.clone();
    Callback::from(move |_: MouseEvent| dispatch.emit(Action::Intervene(act.clone())))
}

/// A button of the panel.
pub fn button(testid: &'static str, label: String, onclick: Callback<MouseEvent>) -> Html {
    html! {
        <button type="button" class="act" data-testid={testid} {onclick}>{ label }</button>
    }
}
