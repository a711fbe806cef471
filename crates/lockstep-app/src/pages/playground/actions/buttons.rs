//! The action panel's buttons: each dispatches one intervention. A button with an amount (the
//! pause's length, the clock's jump) carries its number field inside its frame: one control.

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

/// The number a button acts with, set in a field inside the button's frame.
pub struct Amount {
    pub testid: &'static str,
    pub value: String,
    /// The field's accessible name (the button's words say what it does).
    pub name: &'static str,
    /// The smallest value, if there is one.
    pub min: Option<&'static str>,
    pub onchange: Callback<Event>,
}

/// A button whose amount sits inside it: "Pause client-a for [900] ms". The field is beside the
/// button element, not in it (a button may hold no field), framed with it as one control; the
/// button's accessible name says the whole action, amount included.
pub fn amount_button(
    testid: &'static str,
    (words, whole): (String, String),
    amount: Amount,
    onclick: Callback<MouseEvent>,
) -> Html {
    html! {
        <span class="act act-amount">
            <button type="button" class="act-verb" data-testid={testid} aria-label={whole} {onclick}>{ words }</button>
            <label class="act-field">
                <span class="visually-hidden">{ amount.name }</span>
                <input type="number" step="100" min={amount.min} data-testid={amount.testid}
                    value={amount.value} onchange={amount.onchange} />
                <span aria-hidden="true">{ " ms" }</span>
            </label>
        </span>
    }
}
