//! Why a `lock-setup` file cannot be checked: what is wrong and where, in the scenario format's
//! style (`line 3, column 9: ttl_ms: …`, `resource: …`). It must not say how to run anything.

use crate::scenario::strict_json::JsonError;
use std::fmt;

/// What is wrong with a setup, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// Not valid JSON for this format: a syntax error, a missing or unknown field, a wrong type.
    Json(JsonError),
    /// Not valid for this format as another reader (the command line's TOML) saw it.
    Text(String),
    /// No `format` field.
    MissingFormat,
    /// A version this build does not read.
    UnsupportedFormat { found: u64 },
    /// A value the format does not allow.
    Invalid { path: &'static str, reason: String },
    /// Something real that the simulator cannot represent honestly yet.
    NotModelled { path: &'static str, what: String },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Json(error) => write!(f, "{error}"),
            SetupError::Text(message) => f.write_str(message),
            SetupError::MissingFormat => f.write_str(
                "format: missing; a lock-setup file starts with its version, \"format\": 1",
            ),
            SetupError::UnsupportedFormat { found } => write!(
                f,
                "format: {found} is not a lock-setup version this build reads (it reads {})",
                super::setup::SETUP_FORMAT
            ),
            SetupError::Invalid { path, reason } => write!(f, "{path}: {reason}"),
            SetupError::NotModelled { path, what } => {
                write!(f, "{path}: not yet modelled: {what}")
            }
        }
    }
}

impl std::error::Error for SetupError {}

impl From<JsonError> for SetupError {
    fn from(error: JsonError) -> SetupError {
        SetupError::Json(error)
    }
}
