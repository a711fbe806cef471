//! The popover at a selected node: its three or four likely actions
//! (`lockstep_view::in_place::quick`), "More…" for the full Act panel below, and a close button.
//! It opens when a lane name or stage node selects a node; acting, closing or Escape deselect it
//! (the effect then shows on the timeline, which stays where it was); "More…" and a press
//! anywhere else put it away but keep the selection, so the panel shows that node. On a phone it
//! is a bottom sheet.

use super::placement::{anchor, focus_first, place};
use crate::state::{Action, Playground, Selection};
use lockstep_sim::world::ids::NodeId;
use lockstep_view::in_place::quick::quick_actions;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ActInPlaceProps {
    pub playground: UseReducerHandle<Playground>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn ActInPlace(props: &ActInPlaceProps) -> Html {
    let popover = use_node_ref();
    // The node whose popover gave way to the full panel ("More…"), until the selection changes.
    let dismissed = use_state_eq(|| None::<NodeId>);
    let selected = match props.playground.selection() {
        Selection::Node(node) => Some(node),
        Selection::Nothing | Selection::Message(_) => None,
    };
    let open = selected.filter(|node| *dismissed != Some(*node));
    {
        let dismissed = dismissed.clone();
        use_effect_with(selected, move |_| dismissed.set(None));
    }
    use_light_dismiss(&popover, open, &dismissed);
    {
        let popover = popover.clone();
        let name = open.map(|node| props.playground.sim().cast().name(node).to_owned());
        use_effect_with(name, move |name| {
            if let (Some(name), Some(element)) = (name, popover.cast::<web_sys::HtmlElement>()) {
                place(&element, anchor(name));
                focus_first(&element);
            }
        });
    }
    let Some(node) = open else {
        return html! {};
    };
    let (name, actions) = quick_actions(&props.playground, node);
    let close = props
        .dispatch
        .reform(|_: MouseEvent| Action::Select(Selection::Nothing));
    let onkeydown = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: KeyboardEvent| {
            if event.key() == "Escape" {
                event.stop_propagation();
                dispatch.emit(Action::Select(Selection::Nothing));
            }
        })
    };
    let more = {
        let dismissed = dismissed.clone();
        Callback::from(move |_: MouseEvent| {
            dismissed.set(Some(node));
            show_panel();
        })
    };
    html! {
        <>
            <div class="act-popover" ref={popover} data-testid="act-popover" data-node={name.clone()}
                role="dialog" aria-label={format!("Act on {name}")} {onkeydown}>
                <p class="act-popover-name">
                    <span class="lane-name">{ name.clone() }</span>
                    <button type="button" class="link act-popover-close" data-testid="act-popover-close"
                        aria-label="Close" onclick={close}>{ "✕" }</button>
                </p>
                { for actions.into_iter().map(|quick| {
                    let dispatch = props.dispatch.clone();
                    let action = quick.action;
                    let onclick = Callback::from(move |_: MouseEvent| {
                        dispatch.emit(action.clone());
                        dispatch.emit(Action::Select(Selection::Nothing));
                    });
                    html! {
                        <button type="button" class="tool act-quick" data-testid="quick-action"
                            data-kind={quick.kind.kind_name()} {onclick}>{ quick.label }</button>
                    }
                }) }
                <button type="button" class="link act-more" data-testid="act-more" onclick={more}>
                    { "More… (the full Act panel)" }
                </button>
            </div>
        </>
    }
}

/// Brings the full Act panel into view.
fn show_panel() {
    if let Some(panel) = crate::platform::browser::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("[data-testid=\"actions\"]").ok().flatten())
    {
        panel.scroll_into_view();
    }
}

/// A press anywhere outside the open popover puts it away (the selection stays): the page
/// behind it stays usable, the full panel included. A listener of the document's own, for the
/// press outside every component.
#[hook]
fn use_light_dismiss(
    popover: &NodeRef,
    open: Option<NodeId>,
    dismissed: &UseStateHandle<Option<NodeId>>,
) {
    let popover = popover.clone();
    let dismissed = dismissed.clone();
    use_effect_with(open, move |open| {
        let listener = open.and_then(|node| {
            let document = crate::platform::browser::window()?.document()?;
            Some(gloo_events::EventListener::new(
                &document,
                "pointerdown",
                move |event| {
                    let inside = popover
                        .cast::<web_sys::Node>()
                        .zip(
                            event
                                .target()
                                .and_then(|t| t.dyn_into::<web_sys::Node>().ok()),
                        )
                        .is_some_and(|(popover, target)| popover.contains(Some(&target)));
                    if !inside {
                        dismissed.set(Some(node));
                    }
                },
            ))
        });
        move || drop(listener)
    });
}
