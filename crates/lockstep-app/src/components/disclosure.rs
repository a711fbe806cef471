//! A panel folded until asked for: a `<details>` whose open or closed state is kept for the
//! rest of the visit (the playground's panels are drawn anew when the page comes back from a
//! lesson, and must come back as the user left them). The first screen shows the story, the
//! transport and the act panel; the inspector and the monitoring plots wait here.

use std::cell::RefCell;
use std::collections::BTreeSet;
use wasm_bindgen::JsCast;
use yew::prelude::*;

thread_local! {
    /// The panels opened in this visit, by name.
    static OPENED: RefCell<BTreeSet<&'static str>> = const { RefCell::new(BTreeSet::new()) };
}

#[derive(Properties, PartialEq)]
pub struct FoldedProps {
    /// The panel's name: what keeps its state, and its `data-testid` (`<name>-fold`).
    pub name: &'static str,
    pub summary: AttrValue,
    #[prop_or_default]
    pub class: Classes,
    pub children: Html,
}

/// A panel, closed until opened, then as the user left it for the rest of the visit.
#[component]
pub fn Folded(props: &FoldedProps) -> Html {
    let name = props.name;
    let open = use_state_eq(|| OPENED.with(|o| o.borrow().contains(name)));
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |event: Event| {
            let Some(details) = event
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok())
            else {
                return;
            };
            let now = details.open();
            OPENED.with(|o| {
                let mut opened = o.borrow_mut();
                if now {
                    opened.insert(name);
                } else {
                    opened.remove(name);
                }
            });
            open.set(now);
        })
    };
    html! {
        <details class={classes!("folded", props.class.clone())} data-testid={format!("{name}-fold")}
            open={*open} {ontoggle}>
            <summary>{ props.summary.clone() }</summary>
            { props.children.clone() }
        </details>
    }
}
