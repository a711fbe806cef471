//! The embeds' documents (decision 44): each rendered natively by the embed's own components at
//! its own moment, as its frame shows it before any wasm — the caption, the timeline with its
//! now line at the position the address asks for, the narration there — never a loading
//! placeholder; and its links lead out from the document's own folder.
#![cfg(feature = "ssr")]

use lockstep::render::{self, embeds};
use lockstep_sim::scenario::catalogue::BUILT_IN;
use lockstep_view::link::path;

/// Embeds as the book writes them: a moment, an excerpt with its own controls and caption, a
/// comparison with another built-in scenario, and an old id.
const LISTED: &str = "embed&s=s2-gc-pause-fenced&at=10\n\
    embed&s=s8-held-safely-from-acquisition&from=4&to=20&controls=transport&caption=heldSafely%28%29%20counts%20the%20lease%20from%20the%20wrong%20moment\n\
    embed&s=s1-gc-pause-unfenced&at=7&controls=full\n";

#[test]
fn every_built_in_scenario_and_every_listed_embed_has_a_document() {
    let documents = embeds::documents(LISTED).expect("documents");
    assert_eq!(documents.len(), BUILT_IN.len() + 3);
    for built_in in BUILT_IN {
        let bare = format!("embed/{}/", built_in.id);
        assert!(documents.iter().any(|d| d.path == bare), "{bare}");
    }
    for document in &documents {
        assert_eq!(
            path::address(&document.path, "").as_deref(),
            Ok(document.page.address.as_str())
        );
        assert!(
            document.canonical.starts_with("s/"),
            "{}",
            document.canonical
        );
    }
    let problem = embeds::documents("embed&scenario=e30")
        .err()
        .expect("the author's own scenario has no document");
    assert!(problem.contains("embed&scenario=e30"), "{problem}");
}

#[test]
fn each_document_shows_its_moment() {
    for (address, caption, position) in [
        (
            "embed&s=s2-gc-pause-fenced&at=10",
            "S2 · A GC pause past the lease",
            10,
        ),
        (
            "embed&s=s8-held-safely-from-acquisition&from=4&to=20&controls=transport&caption=heldSafely%28%29%20counts",
            "heldSafely() counts",
            4,
        ),
    ] {
        let document = path::embed_document(address).expect("a document");
        let html = render::at(address, &document).unwrap_or_else(|e| panic!("{e}"));
        assert!(html.contains(caption), "{address}: caption {caption:?}");
        for testid in ["timeline-main", "now-line", "narration", "embed-transport"] {
            assert!(
                html.contains(&format!("data-testid=\"{testid}\"")),
                "{address}: {testid}"
            );
        }
        assert!(
            html.contains(&format!("aria-valuetext=\"event {position} of ")),
            "{address}: stands at event {position}"
        );
        for placeholder in ["Loading", "loading-line"] {
            assert!(!html.contains(placeholder), "{address} shows {placeholder}");
        }
    }
}

#[test]
fn a_documents_link_out_leads_from_its_own_folder() {
    let address = "embed&s=s2-gc-pause-fenced&at=10";
    let document = path::embed_document(address).expect("a document");
    let html = render::at(address, &document).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        html.contains(r#"href="../../../s/s2-gc-pause-fenced/#at=10""#),
        "the link out: {}",
        html.split("embed-open").next().unwrap_or_default()
    );
    // The same embed at the app's root links from there.
    let root = render::at(address, "").unwrap_or_else(|e| panic!("{e}"));
    assert!(root.contains(r#"href="./s/s2-gc-pause-fenced/#at=10""#));
}
