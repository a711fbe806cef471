//! Why a recorded history cannot be read, with where.

use super::file::HISTORY_FORMAT_VERSION;
use crate::scenario::strict_json::JsonError;
use std::fmt;

/// Why a recorded history cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistoryError {
    /// Not JSON of this shape, and where.
    Json(JsonError),
    /// A version this build does not read.
    UnsupportedFormat { found: u32 },
    /// Well-formed, but a value does not hold together with the rest: where, and why.
    Invalid { path: String, reason: String },
}

impl HistoryError {
    pub(super) fn at_operation(index: usize, field: &str, reason: String) -> HistoryError {
        HistoryError::Invalid {
            path: format!("operations[{index}].{field}"),
            reason,
        }
    }
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistoryError::Json(error) => write!(f, "{error}"),
            HistoryError::UnsupportedFormat { found } => write!(
                f,
                "history: this is recorded-history format {found}, but this version of \
                 Lockstep reads format {HISTORY_FORMAT_VERSION}"
            ),
            HistoryError::Invalid { path, reason } => write!(f, "{path}: {reason}"),
        }
    }
}

impl std::error::Error for HistoryError {}
