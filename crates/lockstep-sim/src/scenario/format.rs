//! The versions of the scenario format: which this build reads, what a file's version allows,
//! and how an older file is brought up to date (`docs/scenario-format.md`, "Versions").
//!
//! - Format 1 named where a sequence comes from in a free-text `source`; later format 1 files
//!   (and the catalogue, until format 2) cite the bibliography in `sources` instead.
//! - Format 2 has only `sources`: citations and notes. A format 1 `source` text is read as a
//!   note (`scenario_source`), so every format 1 file still runs, and is written as format 2.
//!
//! A file's version is read first, before any other field, so that a file of a version this
//! build does not read says so instead of listing fields it does not know.

use crate::scenario::error::ScenarioError;
use crate::scenario::strict_json;
use crate::scenario::version::readable;
use serde::Deserialize;
use serde::de::IgnoredAny;

/// The version of a document, and which of the fields that changed between versions it has.
#[derive(Deserialize)]
struct Probe {
    format: Option<u32>,
    #[serde(default)]
    source: Option<IgnoredAny>,
    #[serde(default)]
    sources: Option<IgnoredAny>,
}

/// Refuses a file whose version this build does not read, or that uses a field its version
/// does not have. A document that cannot be probed (not JSON, no `format`) passes: the full
/// reading says what is wrong with it.
pub fn check(json: &str) -> Result<(), ScenarioError> {
    let Ok(Probe {
        format: Some(found),
        source,
        sources,
    }) = strict_json::from_str(json, "scenario")
    else {
        return Ok(());
    };
    if !readable(found) {
        return Err(ScenarioError::UnsupportedFormat { found });
    }
    match (found, source.is_some(), sources.is_some()) {
        (2.., true, _) => Err(ScenarioError::Retired {
            field: "source",
            change: "format 2 has no `source`: move its text into `sources` as a note, \
                     { \"note\": \"…\" }, or cite the bibliography there",
        }),
        (_, true, true) => Err(ScenarioError::Retired {
            field: "source",
            change: "a format 1 file has `source` (text) or `sources` (citations), not both: \
                     move the text into `sources` as { \"note\": \"…\" } and write \"format\": 2",
        }),
        _ => Ok(()),
    }
}
