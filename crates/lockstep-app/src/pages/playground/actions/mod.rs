//! The action panel: what the user can do to whatever they selected on the timeline — a client,
//! a lock service node, the resource, or a message in flight — and the list of their
//! interventions so far, each of which can be taken back.
//!
//! Every button dispatches one [`Action::Intervene`] (or `SetFencing`); the reducer logs it at
//! the current moment and replays. Nothing here changes the run itself.
//!
//! A selected node's actions are in `node.rs`, its network links in `network.rs`.

mod buttons;
mod network;
mod node;

use crate::components::{Current, Shared};
use crate::state::{Action, Selection};
use buttons::{button, intervene};
use lockstep_sim::world::ids::{MessageId, NodeId};
use lockstep_sim::world::intervention::{Action as Act, Intervention};
use lockstep_sim::world::network::MessageStatus;
use lockstep_view::run::Run;
use node::node_actions;
use yew::prelude::*;

/// The panel reads the playground as it stands, and renders again only when what it shows may
/// have changed: the selection, the interventions, and, while something is selected, the moment
/// (a selected client's buttons depend on whether it is paused or crashed there). With nothing
/// selected, a Step does not render it again.
#[derive(Properties, PartialEq)]
pub struct ActionsProps {
    pub playground: Current,
    pub selection: Selection,
    pub log: Shared<Vec<Intervention<String>>>,
    /// The run and position shown, while something is selected.
    pub moment: Option<(Shared<Run>, usize)>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn Actions(props: &ActionsProps) -> Html {
    let playground = &props.playground;
    let pause_ms = use_state(|| 2000u64);
    let jump_ms = use_state(|| 1000i64);
    let peer = use_state(|| None::<NodeId>);
    let one_way = use_state(|| false);
    let body = match playground.selection() {
        Selection::Nothing => html! {
            <p class="muted" data-testid="actions-hint">
                { "Select a lane's name (a client, a lock service node, the resource) or a message \
                   in flight on the timeline to act on it. Whatever you do happens just after the \
                   current event; stepping back and acting again forks the run." }
            </p>
        },
        Selection::Node(node) => node_actions(
            playground,
            &props.dispatch,
            node,
            &pause_ms,
            &jump_ms,
            &peer,
            &one_way,
        ),
        Selection::Message(message) => message_actions(props, message),
    };
    html! {
        <section class="card actions" data-testid="actions" aria-label="Act on the run">
            <h2>{ "Act" }</h2>
            { body }
            { log_list(props) }
        </section>
    }
}

fn message_actions(props: &ActionsProps, message: MessageId) -> Html {
    let sim = props.playground.sim();
    let cast = sim.cast();
    let Some(record) = sim.network().message(message) else {
        return html! { <p class="muted">{ "That message has not been sent at this point of the run." }</p> };
    };
    let d = &props.dispatch;
    let status = match record.status {
        MessageStatus::InFlight => "in flight",
        MessageStatus::Held { .. } => "held",
        MessageStatus::Delivered { .. } => "delivered",
        MessageStatus::Lost { .. } => "lost",
    };
    let mut buttons = Vec::new();
    match record.status {
        MessageStatus::InFlight => {
            buttons.push(button(
                "act-hold",
                "Hold it".to_owned(),
                intervene(d, Act::Hold { message }),
            ));
            buttons.push(button(
                "act-drop",
                "Drop it".to_owned(),
                intervene(d, Act::Drop { message }),
            ));
        }
        MessageStatus::Held { .. } => {
            buttons.push(button(
                "act-release",
                "Release it".to_owned(),
                intervene(d, Act::Release { message }),
            ));
            buttons.push(button(
                "act-drop",
                "Drop it".to_owned(),
                intervene(d, Act::Drop { message }),
            ));
        }
        MessageStatus::Delivered { .. } | MessageStatus::Lost { .. } => {}
    }
    html! {
        <div data-testid="message-actions" data-message-id={message.0.to_string()}>
            <p class="selected-name">
                { format!("message {}: {} from {} to {}, {status}", message.0, record.payload.label(),
                    cast.name(record.from), cast.name(record.to)) }
            </p>
            <p class="muted">{ format!("sent at {} ms, due at {} ms", record.sent_at.0, record.due_at.0) }</p>
            <div class="act-grid">{ for buttons }</div>
        </div>
    }
}

fn log_list(props: &ActionsProps) -> Html {
    let log = props.playground.log();
    if log.is_empty() {
        return html! {};
    }
    html! {
        <div class="log-list">
            <h3>{ "Your interventions" }</h3>
            <ol data-testid="intervention-log">
                { for log.iter().enumerate().map(|(index, entry)| {
                    let dispatch = props.dispatch.clone();
                    let onclick = Callback::from(move |_: MouseEvent| dispatch.emit(Action::Forget(index)));
                    html! {
                        <li data-testid="logged-intervention">
                            <span class="mono">{ format!("{} ms", entry.at_ms.0) }</span>
                            { " " }{ entry.action.to_string() }{ " " }
                            <button type="button" class="link" {onclick}
                                aria-label={format!("Take back: {}", entry.action)}>{ "take back" }</button>
                        </li>
                    }
                }) }
            </ol>
        </div>
    }
}
