//! The Sources page (`#sources`): every entry of the bibliography with its full reference and a
//! link out, grouped by kind; and [`citation_list`], the small "Source: …" lines shown under a
//! scenario, a lesson step, a question's explanation and an interview card ([`note_list`]: a
//! scenario's notes in its author's words, after its citations).
//!
//! Entries are read from `lockstep_sim::sources` (the one bibliography, also used by the CLI);
//! this module only renders them. Links out open in a new tab with `rel="noopener"`.

use crate::link::PageLink;
use lockstep_sim::scenario::sources::{Bibliography, Citation, Source, SourceKind};
use yew::prelude::*;

/// A link to the source's public address, or to the Sources page when it has none.
fn link(source: &Source, text: String) -> Html {
    match &source.url {
        Some(url) => html! {
            <a href={url.clone()} target="_blank" rel="noopener" data-testid="source-link">{ text }</a>
        },
        None => html! { <PageLink to="sources" testid="source-link">{ text }</PageLink> },
    }
}

/// One "Note: …" line per note a scenario gives in its own words (a format 1 file's `source`
/// text), shown under its citations; nothing when there are none.
pub fn note_list<'a>(notes: impl Iterator<Item = &'a str>) -> Html {
    let notes: Vec<&str> = notes.collect();
    if notes.is_empty() {
        return html! {};
    }
    html! {
        <ul class="citations" data-testid="source-notes">
            { for notes.into_iter().map(|note| html! { <li>{ "Note: " }{ note }</li> }) }
        </ul>
    }
}

/// One "Source: …" line per citation; nothing when there are none.
pub fn citation_list(citations: &[Citation]) -> Html {
    if citations.is_empty() {
        return html! {};
    }
    let bibliography = Bibliography::embedded().ok();
    html! {
        <ul class="citations" data-testid="citations">
            { for citations.iter().map(|citation| {
                let entry = bibliography.and_then(|b| b.find(&citation.source));
                html! {
                    <li data-source={citation.source.clone()}>
                        { "Source: " }
                        { match entry {
                            Some(source) => link(source, source.short()),
                            None => html! { { citation.source.clone() } },
                        } }
                        { format!(", {}", citation.at) }
                    </li>
                }
            }) }
        </ul>
    }
}

#[component]
pub fn SourcesPage() -> Html {
    let body = match Bibliography::embedded() {
        Ok(bibliography) => html! {
            { for SourceKind::ALL.iter().map(|kind| {
                let entries: Vec<&Source> = bibliography.sources.iter().filter(|s| s.kind == *kind).collect();
                if entries.is_empty() {
                    return html! {};
                }
                html! {
                    <section class="source-group">
                        <h3>{ kind.heading() }</h3>
                        <ul class="source-list">
                            { for entries.iter().map(|source| html! {
                                <li id={format!("source-{}", source.id)} data-testid="source" data-source={source.id.clone()}>
                                    { source.reference() }
                                    if source.url.is_some() {
                                        { " " }{ link(source, "Open ↗".to_owned()) }
                                    }
                                </li>
                            }) }
                        </ul>
                    </section>
                }
            }) }
        },
        Err(e) => {
            html! { <p class="notice problem" role="alert">{ format!("The sources cannot be read: {e}") }</p> }
        }
    };
    html! {
        <section class="page sources" data-testid="sources">
            <h2>{ "Sources" }</h2>
            <p class="muted">{ "Every scenario, interview card, question, guide answer and fact-stating lesson step cites the \
                public sources below, with the section, figure or page it relies on. Links open in a new tab." }</p>
            { body }
        </section>
    }
}
