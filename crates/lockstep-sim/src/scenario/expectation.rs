//! Expectations, as the file states them: what a scenario claims about its own run ("the stale write is rejected",
//! "exclusion is violated"). The catalogue's expectations are checked by tests and by
//! `lockstep-cli run`, so a scenario that stops reproducing its source's sequence fails loudly.
//!
//! This module holds the format and its validation only; checking a run against an expectation
//! is `expectation_check`'s, so that the file format does not depend on the engine.

pub use crate::vocabulary::happening::ResultKind;

use crate::scenario::cast::Cast;
use crate::scenario::error::ScenarioError;
use crate::vocabulary::invariant::Invariant;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InvariantOutcome {
    Holds,
    Violated,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteVerdict {
    Accepted,
    Rejected,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "expect", deny_unknown_fields)]
pub enum Expectation {
    /// By the end of the run the invariant holds, or was violated at some point.
    Invariant {
        invariant: Invariant,
        outcome: InvariantOutcome,
    },
    /// The `nth` write to reach the resource (counting from 1) came from `by` and had this fate.
    Write {
        nth: u32,
        by: String,
        outcome: WriteVerdict,
    },
    /// The client's job ended this way.
    Result { client: String, result: ResultKind },
    /// The resource's headline number at the end of the run: the register's value, the stock
    /// left, or the total charged.
    FinalValue { value: i64 },
    /// An event of this kind (a `kind` of the trace format, e.g. `released_others_lock`)
    /// happens at least once, or never.
    Event { kind: String, outcome: Occurrence },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Occurrence {
    Occurs,
    Never,
}

impl Expectation {
    pub fn validate(&self, cast: &Cast, path: &str) -> Result<(), ScenarioError> {
        match self {
            Expectation::Write { nth, by, .. } => {
                if *nth == 0 {
                    return Err(ScenarioError::Invalid {
                        path: format!("{path}.nth"),
                        reason: "writes are counted from 1".into(),
                    });
                }
                resolve_client(cast, by, &format!("{path}.by"))
            }
            Expectation::Result { client, .. } => {
                resolve_client(cast, client, &format!("{path}.client"))
            }
            Expectation::Event { kind, .. } => {
                if crate::vocabulary::happening::KINDS.contains(&kind.as_str()) {
                    Ok(())
                } else {
                    Err(ScenarioError::Invalid {
                        path: format!("{path}.kind"),
                        reason: format!(
                            "\"{kind}\" is not an event kind (see docs/trace-format.md)"
                        ),
                    })
                }
            }
            Expectation::Invariant { .. } | Expectation::FinalValue { .. } => Ok(()),
        }
    }
}

fn resolve_client(cast: &Cast, name: &str, path: &str) -> Result<(), ScenarioError> {
    let node = cast.resolve(name, path)?;
    if cast.is_client(node) {
        Ok(())
    } else {
        Err(ScenarioError::Invalid {
            path: path.to_owned(),
            reason: format!("\"{name}\" is not a client"),
        })
    }
}
