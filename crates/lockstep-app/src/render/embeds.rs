//! The embeds' documents the build renders (issue 41, point 4): every built-in scenario's embed
//! as the host script writes it for a bare `<div data-lockstep="<id>">`, and every embed of a
//! built-in scenario in the book (the list `mdbook-lockstep` writes), each at its own moment.
//! A frame the host script points at one shows that moment before any wasm has loaded.
//!
//! Only the embeds the build can know: the author's own scenario, a lesson and a recorded run
//! keep the loading frame (`lockstep_view::link::path::embed_document` says which have a
//! document). This module says which documents there are; it renders nothing itself.

use super::pages::Page;
use lockstep_sim::scenario::catalogue::BUILT_IN;
use lockstep_view::link::embed::host_script_address;
use lockstep_view::link::{path, share};
use std::collections::BTreeSet;

/// One rendered embed: its page, the document's path (`embed/<id>/…/`), and the path of the
/// page a search engine should send readers to instead (its scenario's, `s/<id>/`).
pub struct Document {
    pub page: Page,
    pub path: String,
    pub canonical: String,
}

/// The documents for every built-in scenario's bare embed and for each address of `listed`
/// (the book's, one per line), each once; an address that has no document is refused, naming
/// it, since the book promised one.
pub fn documents(listed: &str) -> Result<Vec<Document>, String> {
    let bare = BUILT_IN
        .iter()
        .map(|built_in| host_script_address(built_in.id, &[]));
    let listed = listed.lines().map(str::trim).filter(|l| !l.is_empty());
    let addresses: BTreeSet<String> = bare.chain(listed.map(str::to_owned)).collect();
    addresses
        .into_iter()
        .map(|address| document(&address))
        .collect()
}

fn document(address: &str) -> Result<Document, String> {
    let path = path::embed_document(address)
        .ok_or_else(|| format!("the embed #{address} has no document of its own"))?;
    let id =
        share::built_in_named(address).ok_or_else(|| format!("#{address} names no scenario"))?;
    let scenario = BUILT_IN
        .iter()
        .find(|built_in| built_in.id == id)
        .and_then(|built_in| built_in.load().ok())
        .ok_or_else(|| format!("the built-in scenario {id} does not load"))?;
    Ok(Document {
        page: super::pages::page(address.to_owned(), &scenario.summary),
        path,
        canonical: path::locate(&format!("s={id}")).path,
    })
}
