//! A glossary term in a text: marked (a dotted underline), and defined in a small popover on
//! hover, focus and tap, placed inside the window by `lockstep_view::glossary::place` (and
//! placed again as the page scrolls); Escape or leaving it closes it. [`glossed`] marks the terms of a whole text. What the
//! terms are and what they mean is `lockstep_view::glossary`'s: this only draws them.

use crate::platform::browser;
use gloo_events::EventListener;
use lockstep_view::glossary::{self, Part, Placement, TermBox, Vertical};
use std::cell::Cell;
use yew::prelude::*;

thread_local! {
    /// Numbers each term's popover, for its `id`.
    static NEXT_ID: Cell<u32> = const { Cell::new(0) };
}

/// `text` with each glossary term it uses marked (see `lockstep_view::glossary::split`).
pub fn glossed(text: &str) -> Html {
    glossary::split(text)
        .into_iter()
        .map(|part| match part {
            Part::Plain(plain) => Html::from(plain.to_owned()),
            Part::Term(term, found) => {
                html! { <Term {term} text={AttrValue::from(found.to_owned())} /> }
            }
        })
        .collect()
}

#[derive(Properties, PartialEq)]
pub struct TermProps {
    pub term: glossary::Term,
    /// The term as the text spells it.
    pub text: AttrValue,
}

/// One marked term and, while it is open, its definition.
#[component]
pub fn Term(props: &TermProps) -> Html {
    let open = use_state_eq(|| None::<Placement>);
    let id = use_memo((), |_| {
        NEXT_ID.with(|n| {
            n.set(n.get() + 1);
            format!("term-{}", n.get())
        })
    });
    let node = use_node_ref();
    let show = {
        let (open, node) = (open.clone(), node.clone());
        Callback::from(move |()| {
            if let Some((left, top, bottom)) = node
                .cast::<web_sys::Element>()
                .and_then(|e| browser::box_of(&e))
            {
                let (width, height) = browser::window_size();
                open.set(Some(glossary::place(
                    TermBox { left, top, bottom },
                    width,
                    height,
                )));
            }
        })
    };
    let hide = {
        let open = open.clone();
        Callback::from(move |()| open.set(None))
    };
    use_follow_on_scroll(open.is_some(), show.clone());
    // Opened by a tap or the keyboard, it stays until the focus leaves (or Escape): a tap's
    // emulated mouse may leave the term at once.
    let onmouseleave = {
        let (hide, node) = (hide.clone(), node.clone());
        Callback::from(move |_: MouseEvent| {
            if !node
                .cast::<web_sys::Element>()
                .is_some_and(|e| browser::has_focus(&e))
            {
                hide.emit(());
            }
        })
    };
    let onkeydown = {
        let hide = hide.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                hide.emit(());
            }
        })
    };
    // A tap opens it; in a label (the seed's) it must not also move the focus to the field.
    let onclick = show.reform(|e: MouseEvent| e.prevent_default());
    let entry = props.term.entry();
    html! {
        <span class="term" tabindex="0" ref={node} data-testid="term" data-term={entry.name}
            aria-describedby={open.is_some().then(|| (*id).clone())}
            onmouseenter={show.reform(|_: MouseEvent| ())} {onmouseleave}
            onfocus={show.reform(|_: FocusEvent| ())} onblur={hide.reform(|_: FocusEvent| ())}
            {onclick} {onkeydown}>
            { props.text.clone() }
            { for open.and_then(|placement| popover(placement, &id, entry)) }
        </span>
    }
}

/// The definition, drawn in `<body>` rather than inside the sentence: the sentence's text (what
/// a reader copies, what a test reads) stays the sentence, and no ancestor's transform or
/// overflow can move or clip it.
fn popover(placement: Placement, id: &str, entry: &glossary::Entry) -> Option<Html> {
    let body = crate::platform::browser::window()?.document()?.body()?;
    Some(create_portal(
        html! {
            <span class="term-popover" role="tooltip" id={id.to_owned()} data-testid="term-definition"
                style={style(placement)}>
                <strong>{ entry.name }</strong>{ " — " }{ entry.definition }
            </span>
        },
        body.into(),
    ))
}

/// The popover's place as inline style: the one thing the stylesheet cannot know.
fn style(placement: Placement) -> String {
    let vertical = match placement.vertical {
        Vertical::Below(top) => format!("top: {top:.0}px"),
        Vertical::Above(bottom) => format!("bottom: {bottom:.0}px"),
    };
    format!(
        "left: {:.0}px; width: {:.0}px; {vertical}",
        placement.left, placement.width
    )
}

/// Moves an open popover with its term when the page scrolls: it is placed in the window, not
/// in the text.
#[hook]
fn use_follow_on_scroll(open: bool, place: Callback<()>) {
    use_effect_with(open, move |open| {
        let listener = (*open)
            .then(web_sys::window)
            .flatten()
            .map(|window| EventListener::new(&window, "scroll", move |_| place.emit(())));
        move || drop(listener)
    });
}
