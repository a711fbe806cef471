//! Why a scenario cannot be run: each error says where (a path in the file's own terms) and why.

use crate::scenario::budget::BudgetSpent;
use crate::scenario::strict_json::JsonError;
use crate::scenario::version::{FORMAT_VERSION, OLDEST_FORMAT};
use std::fmt;

/// Why a scenario cannot be run. Each variant says where (`path`, in the file's own terms) and
/// why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    /// Not valid JSON for this format: a syntax error, a missing or unknown field, a wrong type.
    Syntax {
        line: usize,
        column: usize,
        /// Where in the document, e.g. `clients[1].renewal`, when known.
        path: Option<String>,
        message: String,
    },
    /// A version this build does not read (`scenario::version`).
    UnsupportedFormat {
        found: u32,
    },
    /// A field the file's version does not have, and what to write instead.
    Retired {
        field: &'static str,
        change: &'static str,
    },
    Invalid {
        path: String,
        reason: String,
    },
    /// The run reached its budget before its end (see `budget`).
    BudgetSpent(BudgetSpent),
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Syntax {
                line,
                column,
                path,
                message,
            } => {
                // serde cannot place errors inside tagged objects: it reports line 0 there.
                if *line > 0 {
                    write!(f, "line {line}, column {column}: ")?;
                }
                match path {
                    Some(path) => write!(f, "{path}: {message}"),
                    None => f.write_str(message),
                }
            }
            ScenarioError::UnsupportedFormat { found } => write!(
                f,
                "format: this is format {found}, but this version of Lockstep reads formats {} to \
                 {FORMAT_VERSION}",
                OLDEST_FORMAT
            ),
            ScenarioError::Retired { field, change } => write!(f, "{field}: {change}"),
            ScenarioError::Invalid { path, reason } => write!(f, "{path}: {reason}"),
            ScenarioError::BudgetSpent(spent) => write!(f, "{spent}"),
        }
    }
}

impl std::error::Error for ScenarioError {}

impl From<JsonError> for ScenarioError {
    fn from(error: JsonError) -> ScenarioError {
        ScenarioError::Syntax {
            line: error.line,
            column: error.column,
            path: error.path,
            message: error.message,
        }
    }
}

/// A value serde read but the format does not allow: where, and why.
pub fn invalid(path: impl Into<String>, reason: impl Into<String>) -> ScenarioError {
    ScenarioError::Invalid {
        path: path.into(),
        reason: reason.into(),
    }
}
