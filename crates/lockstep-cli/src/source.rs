//! Where a scenario comes from (a file or a built-in id) and reading it. The commands that take
//! a scenario read it through here, so a missing file or id is worded once.

use crate::error::CliError;
use lockstep_sim::Scenario;
use lockstep_sim::scenario::catalogue;
use std::convert::Infallible;
use std::path::Path;

#[derive(Debug, PartialEq, Eq, Clone)]
pub enum Source {
    File(String),
    BuiltIn(String),
}

impl Source {
    /// A value parser: a name ending in `.json`, or naming an existing file, is a file; anything
    /// else a built-in id.
    pub fn from_argument(argument: &str) -> Result<Source, Infallible> {
        Ok(
            if argument.ends_with(".json") || Path::new(argument).exists() {
                Source::File(argument.to_owned())
            } else {
                Source::BuiltIn(argument.to_owned())
            },
        )
    }

    pub fn describe(&self) -> String {
        match self {
            Source::File(path) => path.clone(),
            Source::BuiltIn(id) => format!("built-in scenario {id}"),
        }
    }

    /// The scenario's bytes: the file's, or the built-in's.
    pub fn bytes(&self) -> Result<Vec<u8>, CliError> {
        match self {
            Source::File(path) => std::fs::read(path).map_err(|e| CliError::Read {
                path: path.clone(),
                reason: e.to_string(),
            }),
            Source::BuiltIn(id) => catalogue::find(id)
                .map(|b| b.json.as_bytes().to_vec())
                .ok_or_else(|| CliError::Scenario {
                    origin: id.clone(),
                    reason: "no such built-in scenario (see `lockstep-cli list`) and no such file"
                        .into(),
                }),
        }
    }

    /// The scenario itself, parsed and checked.
    pub fn load(&self) -> Result<Scenario, CliError> {
        // Bytes, not a string: a file that is not UTF-8 is a scenario error with its position.
        Scenario::parse_bytes(&self.bytes()?).map_err(|e| self.invalid(e.to_string()))
    }

    /// An error in this scenario's content.
    pub fn invalid(&self, reason: String) -> CliError {
        CliError::Scenario {
            origin: self.describe(),
            reason,
        }
    }
}
