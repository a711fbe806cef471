//! What a scenario says about where its sequence comes from: its `sources`, each either a
//! citation of the bibliography (`{ "source": "kleppmann-2016", "at": "§ …" }`, checked against
//! `content/sources.json`) or a note in the author's own words (`{ "note": "…" }`, not checked).
//!
//! A note is also where format 1's free-text `source` goes when such a file is read: that text
//! names no bibliography entry, so it cannot become a citation, and dropping it would lose what
//! the author wrote. [`read_sources`] reads the field in both shapes (format 1's text under the
//! name `source`, or the list); which shape a version may use is `scenario::format`'s business.

use crate::scenario::sources::Citation;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One entry of a scenario's `sources`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SourceFields", into = "SourceFields")]
pub enum ScenarioSource {
    /// A bibliography entry with a locator.
    Cited(Citation),
    /// The author's own words (format 1's `source` text lands here).
    Note(String),
}

impl ScenarioSource {
    pub fn citation(&self) -> Option<&Citation> {
        match self {
            ScenarioSource::Cited(citation) => Some(citation),
            ScenarioSource::Note(_) => None,
        }
    }

    pub fn note(&self) -> Option<&str> {
        match self {
            ScenarioSource::Note(text) => Some(text),
            ScenarioSource::Cited(_) => None,
        }
    }
}

/// The fields an entry may have, as written.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SourceFields {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

/// Why an entry of `sources` is neither a citation nor a note.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceShapeError {
    /// A citation without its locator.
    NoLocator,
    /// A locator without the entry it locates.
    NoSource,
    /// A note with citation fields beside it.
    NoteWithCitation,
    /// None of the fields.
    Empty,
}

impl fmt::Display for SourceShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SourceShapeError::NoLocator => "missing field `at` (where in the source)",
            SourceShapeError::NoSource => "missing field `source` (the bibliography entry's id)",
            SourceShapeError::NoteWithCitation => {
                "a note stands alone: write { \"note\": … } and the citation { \"source\": …, \
                 \"at\": … } as two entries"
            }
            SourceShapeError::Empty => {
                "an entry is a citation { \"source\": …, \"at\": … } or a note { \"note\": … }"
            }
        })
    }
}

impl TryFrom<SourceFields> for ScenarioSource {
    type Error = SourceShapeError;

    fn try_from(fields: SourceFields) -> Result<ScenarioSource, SourceShapeError> {
        match (fields.source, fields.at, fields.note) {
            (Some(source), Some(at), None) => Ok(ScenarioSource::Cited(Citation { source, at })),
            (None, None, Some(note)) => Ok(ScenarioSource::Note(note)),
            (_, _, Some(_)) => Err(SourceShapeError::NoteWithCitation),
            (Some(_), None, None) => Err(SourceShapeError::NoLocator),
            (None, Some(_), None) => Err(SourceShapeError::NoSource),
            (None, None, None) => Err(SourceShapeError::Empty),
        }
    }
}

impl From<ScenarioSource> for SourceFields {
    fn from(entry: ScenarioSource) -> SourceFields {
        match entry {
            ScenarioSource::Cited(Citation { source, at }) => SourceFields {
                source: Some(source),
                at: Some(at),
                note: None,
            },
            ScenarioSource::Note(note) => SourceFields {
                source: None,
                at: None,
                note: Some(note),
            },
        }
    }
}

/// Reads `sources`: the list, or format 1's `source` text, kept as one note (none when the
/// text is blank, as files written without a source had it: `"source": ""`).
pub fn read_sources<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<ScenarioSource>, D::Error> {
    deserializer.deserialize_any(ListOrText)
}

struct ListOrText;

impl<'de> Visitor<'de> for ListOrText {
    type Value = Vec<ScenarioSource>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of citations and notes (or, in format 1, the text of `source`)")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        let text = text.trim();
        Ok(if text.is_empty() {
            Vec::new()
        } else {
            vec![ScenarioSource::Note(text.to_owned())]
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = seq.next_element()? {
            entries.push(entry);
        }
        Ok(entries)
    }
}
