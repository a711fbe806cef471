//! Reading a recorded history's file: the version first (so a file of another version says
//! so, not that some field is wrong), then the file strictly, then what its operations must
//! say ([`RecordedHistory::from_file`]).

use super::error::HistoryError;
use super::file::{HISTORY_FORMAT_VERSION, RecordedFile};
use super::history::RecordedHistory;
use crate::scenario::strict_json;
use serde::Deserialize;

/// Just the version.
#[derive(Deserialize)]
struct Probe {
    history: Option<u32>,
}

impl RecordedHistory {
    /// Reads a recorded history's file strictly.
    pub fn parse(text: &str) -> Result<RecordedHistory, HistoryError> {
        if let Ok(Probe {
            history: Some(found),
        }) = strict_json::from_str(text, "history")
            && found != HISTORY_FORMAT_VERSION
        {
            return Err(HistoryError::UnsupportedFormat { found });
        }
        let file: RecordedFile =
            strict_json::from_str(text, "history").map_err(HistoryError::Json)?;
        RecordedHistory::from_file(file)
    }

    /// Whether `text` looks like a recorded history rather than a scenario or a trace: its top
    /// level has the `history` version field. Only that is read.
    pub fn is_history(text: &str) -> bool {
        matches!(
            strict_json::from_str::<Probe>(text, "history"),
            Ok(Probe { history: Some(_) })
        )
    }
}
