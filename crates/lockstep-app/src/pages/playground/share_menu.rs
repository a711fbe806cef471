//! The setup bar's "Share" menu: a link to this moment, or "Embed code…", which opens the
//! dialog that makes the code embedding it in another page (`embed_dialog.rs`). The link copied
//! is also shown ([`copied_view`], at the end of the bar), selectable, for a browser that keeps
//! the clipboard from the page. It reads the moment when an item is chosen, never on a render.

use crate::components::{Current, menu};
use crate::link;
use crate::pages::playground::embed_dialog::EmbedDialog;
use crate::platform::browser;
use crate::state::Moment;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ShareMenuProps {
    /// Read when an item is chosen, never on a render.
    pub playground: Current,
    /// Told what was copied, to show it.
    pub on_copied: Callback<Copied>,
}

/// What the menu copied last.
#[derive(Clone, PartialEq)]
pub enum Copied {
    Link(String),
}

#[component]
pub fn ShareMenu(props: &ShareMenuProps) -> Html {
    let details = use_node_ref();
    menu::use_keep_in_window(&details);
    // The moment the embed dialog was opened at, while it is open.
    let embedding = use_state(|| None::<Rc<Moment>>);
    let copy_link = {
        let details = details.clone();
        let on_copied = props.on_copied.clone();
        let playground = props.playground.clone();
        Callback::from(move |_: MouseEvent| {
            menu::close(&details);
            if let Some(moment) = playground.moment() {
                let made = browser::link_with(&link::encode(&moment));
                browser::copy(&made);
                on_copied.emit(Copied::Link(made));
            }
        })
    };
    let open_embed = {
        let (details, embedding) = (details.clone(), embedding.clone());
        let playground = props.playground.clone();
        Callback::from(move |_: MouseEvent| {
            menu::close(&details);
            embedding.set(playground.moment().map(Rc::new));
        })
    };
    let close_embed = {
        let embedding = embedding.clone();
        Callback::from(move |()| embedding.set(None))
    };
    // Once the dialog has gone (and the focus with it), the focus goes back to the menu's
    // button, where the author was before it opened.
    let was_open = use_mut_ref(|| false);
    use_effect_with(embedding.is_some(), move |open| {
        if !*open && *was_open.borrow() {
            browser::focus("[data-testid=\"share-menu\"]");
        }
        *was_open.borrow_mut() = *open;
    });
    html! {
        <>
            <details class="share" ref={details.clone()} onkeydown={menu::escape_closes(&details)}>
                <summary class="tool" data-testid="share-menu">{ "Share" }</summary>
                <div class="more-menu">
                    <button type="button" class="tool" data-testid="share" onclick={copy_link}>
                        { "Copy link" }
                    </button>
                    <button type="button" class="tool" data-testid="copy-embed-code" onclick={open_embed}>
                        { "Embed code…" }
                    </button>
                </div>
            </details>
            { for (*embedding).clone().map(|moment| in_body(html! { <EmbedDialog {moment} on_close={close_embed} /> })) }
        </>
    }
}

/// The dialog drawn in `<body>`, over the page: inside the setup bar, which a phone folds away,
/// it would be hidden with the bar. (Where there is no body, as in the build's render, in place.)
fn in_body(dialog: Html) -> Html {
    match browser::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        Some(body) => create_portal(dialog, body.into()),
        None => dialog,
    }
}

/// What was copied, shown in full.
pub fn copied_view(copied: &Copied) -> Html {
    match copied {
        Copied::Link(url) => html! {
            <p class="shared" role="status">
                { "Link copied: " }
                <input type="text" readonly=true value={url.clone()} data-testid="share-link" aria-label="Link to this moment" />
            </p>
        },
    }
}
