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
    /// Open until the user closes it (a short event log); folded otherwise.
    #[prop_or_default]
    pub open_at_first: bool,
    #[prop_or_default]
    pub class: Classes,
    pub children: Html,
}

/// A panel, closed until opened, then as the user left it for the rest of the visit.
#[component]
pub fn Folded(props: &FoldedProps) -> Html {
    let name = props.name;
    let closed = format!("-{name}");
    // The user's choice in this visit, if any; until then the panel is as at first (which may
    // change: a link shows the default run before its own, long one). Read in an effect: the
    // build's render (issue 41) has no session storage, and the wasm's first render must match
    // it, so a panel the user opened earlier in the visit opens just after the page starts.
    let choice = use_state_eq(|| None);
    {
        let choice = choice.clone();
        let closed = closed.clone();
        use_effect_with(name, move |_| {
            let kept = browser::opened_panels();
            if kept.iter().any(|p| p == name) {
                choice.set(Some(true));
            } else if kept.contains(&closed) {
                choice.set(Some(false));
            }
        });
    }
    let open = choice.unwrap_or(props.open_at_first);
    let ontoggle = {
        let choice = choice.clone();
        Callback::from(move |event: Event| {
            let Some(details) = event
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok())
            else {
                return;
            };
            let now = details.open();
            // The page's own change (as at first) is no choice of the user's.
            if now == open {
                return;
            }
            // Each panel's last choice, open (`name`) or closed (`-name`).
            let mut kept = browser::opened_panels();
            kept.retain(|p| p != name && *p != closed);
            kept.push(if now { name.to_owned() } else { closed.clone() });
            browser::keep_opened_panels(&kept);
            choice.set(Some(now));
        })
    };
    html! {
        <details class={classes!("folded", props.class.clone())} data-testid={format!("{name}-fold")}
            {open} {ontoggle}>
            <summary>{ props.summary.clone() }</summary>
            { props.children.clone() }
        </details>
    }
}
