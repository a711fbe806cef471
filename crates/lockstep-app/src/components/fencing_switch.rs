//! The fencing switch: on or off, its state in words beside the track, as the playground's setup
//! bar and an embed with `controls=full` both show it. Turning it on from a scenario fenced by a
//! sequencer or a check-and-set chooses plain fencing; the run itself is the reducer's to change.

use crate::state::Action;
use lockstep_sim::models::resource::Fencing;
use lockstep_view::link::fencing::fencing_word;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct FencingSwitchProps {
    pub fencing: Fencing,
    pub dispatch: Callback<Action>,
    /// The switch's test hook: the playground and the embed name theirs apart.
    pub testid: AttrValue,
}

/// A switch, not a filled button: a filled button would read as the page's main action, Step.
#[component]
pub fn FencingSwitch(props: &FencingSwitchProps) -> Html {
    let fencing = props.fencing;
    let onclick = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            let next = if fencing == Fencing::Off {
                Fencing::On
            } else {
                Fencing::Off
            };
            dispatch.emit(Action::SetFencing(next));
        })
    };
    html! {
        <button type="button" role="switch" class="tool switch" data-testid={props.testid.clone()}
            aria-checked={(fencing != Fencing::Off).to_string()} {onclick}>
            <span class="switch-name">{ "Fencing" }</span>
            <span class="switch-track" aria-hidden="true"><span class="switch-thumb"></span></span>
            <span class="switch-state" aria-hidden="true">{ fencing_word(fencing) }</span>
        </button>
    }
}
