//! A panel folded until asked for: a `<details>` whose open or closed state is kept for the
//! rest of the visit — the tab's session storage (`browser::opened_panels`), so coming back
//! from a lesson or reloading finds it as the user left it. The first screen shows the story,
//! the transport and the act panel; the inspector and the monitoring plots wait here.

use crate::platform::browser;
use wasm_bindgen::JsCast;
use yew::prelude::*;

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
    let open = use_state_eq(|| browser::opened_panels().iter().any(|p| p == name));
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
            let mut opened = browser::opened_panels();
            opened.retain(|p| p != name);
            if now {
                opened.push(name.to_owned());
            }
            browser::keep_opened_panels(&opened);
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
