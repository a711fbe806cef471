//! The setup bar's "Share" menu: a link to this moment, or the code that embeds it in another
//! page (with the host script, or as a plain iframe; the snippets come from
//! [`lockstep_view::embed::code`]). What was copied is also shown ([`copied_view`], at the end of the
//! bar), selectable, for a browser that keeps the clipboard from the page. It computes a link
//! or snippet when chosen, never on a render.

use crate::components::{Current, menu};
use crate::link;
use crate::platform::browser;
use lockstep_view::embed::{self, code::AppAddress};
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
    HostScript(String),
    Iframe(String),
}

#[derive(Clone, Copy, PartialEq)]
enum Choice {
    Link,
    HostScript,
    Iframe,
}

#[component]
pub fn ShareMenu(props: &ShareMenuProps) -> Html {
    let details = use_node_ref();
    menu::use_keep_in_window(&details);
    let choose = |choice: Choice| {
        let details = details.clone();
        let on_copied = props.on_copied.clone();
        let playground = props.playground.clone();
        Callback::from(move |_: MouseEvent| {
            menu::close(&details);
            let Some(moment) = playground.moment() else {
                return;
            };
            let page = browser::link_with("");
            let made = match choice {
                Choice::Link => Copied::Link(browser::link_with(&link::encode(&moment))),
                Choice::HostScript => Copied::HostScript(
                    embed::code::for_moment(
                        &AppAddress::of_page(&page),
                        &moment,
                        &crate::platform::library::loaded,
                    )
                    .host_script,
                ),
                Choice::Iframe => Copied::Iframe(
                    embed::code::for_moment(
                        &AppAddress::of_page(&page),
                        &moment,
                        &crate::platform::library::loaded,
                    )
                    .iframe,
                ),
            };
            let text = match &made {
                Copied::Link(text) | Copied::HostScript(text) | Copied::Iframe(text) => text,
            };
            browser::copy(text);
            on_copied.emit(made);
        })
    };
    html! {
        <details class="share" ref={details.clone()} onkeydown={menu::escape_closes(&details)}>
            <summary class="tool" data-testid="share-menu">{ "Share" }</summary>
            <div class="more-menu">
                <button type="button" class="tool" data-testid="share" onclick={choose(Choice::Link)}>
                    { "Copy link" }
                </button>
                <button type="button" class="tool" data-testid="copy-embed-code" onclick={choose(Choice::HostScript)}>
                    { "Copy embed code" }
                </button>
                <button type="button" class="tool" data-testid="copy-embed-iframe" onclick={choose(Choice::Iframe)}>
                    { "Copy embed code as a plain iframe" }
                </button>
            </div>
        </details>
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
        Copied::HostScript(code) => code_shown(
            "Embed code copied. Paste it into a page's HTML: the script turns the div into a live embed of this moment.",
            code,
        ),
        Copied::Iframe(code) => code_shown(
            "Embed code copied. For a page that cannot run scripts: the iframe shows this moment, 420 px tall in a browser that cannot size it to its content.",
            code,
        ),
    }
}

fn code_shown(said: &'static str, code: &str) -> Html {
    html! {
        <div class="shared" role="status">
            <label>
                <span>{ said }</span>
                <textarea readonly=true rows="4" data-testid="embed-code" value={code.to_owned()} />
            </label>
        </div>
    }
}
