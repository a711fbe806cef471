//! Reading an exported trace (`docs/trace-format.md`) back: what an import needs to replay it
//! and to say where a replay differs — the version, the scenario's id, the seed, the hash, each
//! event's time and kind, and the scenario file the app puts in `source`. The rest of the file
//! is not read, which keeps the parser of every event's details out of the browser build.
//!
//! Trace formats 1 and 2 are read alike: format 2 changed only each event's `sent` (objects
//! instead of message numbers), which an import does not read, and the top level has only gained
//! `source` (optional). A scenario in `source` is read in any scenario format this build reads (a
//! format 1 scenario's `source` text becomes a note, see `scenario_source`).

use crate::scenario::strict_json::{self, JsonError};
use crate::scenario::types::Scenario;
use crate::story::export::TRACE_FORMAT_VERSION;
use serde::Deserialize;
use std::fmt;
use std::ops::RangeInclusive;

/// Every trace format this build reads: an old version still loads (what an import reads has
/// kept its shape).
const READ: RangeInclusive<u32> = 1..=TRACE_FORMAT_VERSION;

/// What an import reads of an exported trace.
#[derive(Debug, Deserialize)]
pub struct ImportedTrace {
    pub format: u32,
    pub scenario: String,
    pub seed: u64,
    pub hash: String,
    pub events: Vec<ImportedEvent>,
    #[serde(default)]
    pub source: Option<Scenario>,
}

#[derive(Debug, Deserialize)]
pub struct ImportedEvent {
    pub time_ms: u64,
    pub kind: String,
}

/// Why a trace cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceImportError {
    /// Not JSON of this shape, and where.
    Json(JsonError),
    /// A version this build does not read.
    UnsupportedFormat { found: u32 },
}

impl fmt::Display for TraceImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceImportError::Json(error) => write!(f, "{error}"),
            TraceImportError::UnsupportedFormat { found } => write!(
                f,
                "format: this is trace format {found}, but this version of Lockstep reads trace \
                 formats {} to {}",
                READ.start(),
                READ.end()
            ),
        }
    }
}

impl std::error::Error for TraceImportError {}

/// Just the version, read first so that a trace of another version says so.
#[derive(Deserialize)]
struct Probe {
    format: Option<u32>,
}

impl ImportedTrace {
    /// Reads an exported trace strictly, refusing a version this build does not read.
    pub fn parse(text: &str) -> Result<ImportedTrace, TraceImportError> {
        if let Ok(Probe {
            format: Some(found),
        }) = strict_json::from_str(text, "trace")
            && !READ.contains(&found)
        {
            return Err(TraceImportError::UnsupportedFormat { found });
        }
        strict_json::from_str(text, "trace").map_err(TraceImportError::Json)
    }
}
