//! A selected node's network links: cut the link to a peer (both ways or one way) or heal it.

use super::buttons::{button, intervene};
use crate::state::Action;
use lockstep_sim::scenario::cast::Cast;
use lockstep_sim::vocabulary::happening::Direction;
use lockstep_sim::world::ids::NodeId;
use lockstep_sim::world::intervention::Action as Act;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// The "Network" fieldset for `node`: the peer (the one chosen, or the first other node), the
/// direction, and the buttons.
pub fn network_fieldset(
    d: &Callback<Action>,
    cast: &Cast,
    node: NodeId,
    peer: &UseStateHandle<Option<NodeId>>,
    one_way: &UseStateHandle<bool>,
) -> Html {
    let name = cast.name(node).to_owned();
    let others: Vec<NodeId> = cast.nodes().filter(|&o| o != node).collect();
    let chosen_peer = peer
        .filter(|p| others.contains(p))
        .or(others.first().copied());
    let on_peer = {
        let peer = peer.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            peer.set(select.value().parse::<u16>().ok().map(NodeId));
        })
    };
    let on_one_way = {
        let one_way = one_way.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            one_way.set(input.checked());
        })
    };
    let partition = chosen_peer.map(|to| {
        let direction = if **one_way {
            Direction::OneWay
        } else {
            Direction::Both
        };
        let to_name = cast.name(to).to_owned();
        html! {
            <div class="act-row">
                { button("act-partition", format!("Cut the link to {to_name}"),
                    intervene(d, Act::Partition { from: name.clone(), to: to_name.clone(), direction })) }
                { button("act-heal", format!("Heal the link to {to_name}"),
                    intervene(d, Act::Heal { a: name.clone(), b: to_name })) }
            </div>
        }
    });
    html! {
        <fieldset class="partition">
            <legend>{ "Network" }</legend>
            <label>{ "Link to " }
                <select data-testid="partition-peer" onchange={on_peer}>
                    { for others.iter().map(|o| html! {
                        <option value={o.0.to_string()} selected={Some(*o) == chosen_peer}>{ cast.name(*o).to_owned() }</option>
                    }) }
                </select>
            </label>
            <label class="check">
                <input type="checkbox" data-testid="one-way" checked={**one_way} onchange={on_one_way} />
                { format!(" one-way (only {name} → peer is cut)") }
            </label>
            { for partition }
        </fieldset>
    }
}
