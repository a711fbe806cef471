//! Expectations: what a scenario claims about its own run ("the stale write is rejected",
//! "exclusion is violated"). The catalogue's expectations are checked by tests and by
//! `lockstep-cli run`, so a scenario that stops reproducing its source's sequence fails loudly.

pub use crate::vocabulary::happening::ResultKind;

use crate::invariant::Invariant;
use crate::scenario::{Cast, ScenarioError};
use crate::sim::Sim;
use crate::vocabulary::happening::Happening;
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

    /// Checks the expectation against a finished run; the error says what happened instead.
    pub fn check(&self, sim: &Sim) -> Result<(), String> {
        let cast = sim.cast();
        match self {
            Expectation::Invariant { invariant, outcome } => {
                let broken_at = sim.trace().iter().find(|e| e.violated.contains(*invariant));
                match (outcome, broken_at) {
                    (InvariantOutcome::Holds, None) | (InvariantOutcome::Violated, Some(_)) => {
                        Ok(())
                    }
                    (InvariantOutcome::Holds, Some(event)) => Err(format!(
                        "expected \"{invariant}\" to hold, but event {} at {} broke it",
                        event.id, event.time
                    )),
                    (InvariantOutcome::Violated, None) => Err(format!(
                        "expected \"{invariant}\" to be violated, but it held throughout"
                    )),
                }
            }
            Expectation::Write { nth, by, outcome } => {
                let write = sim
                    .trace()
                    .iter()
                    .filter_map(|e| match e.happening {
                        Happening::WriteAccepted { writer, .. }
                        | Happening::StockTaken { buyer: writer, .. }
                        | Happening::ChargeApplied { payer: writer, .. }
                        | Happening::ChargeReplayed { payer: writer, .. } => {
                            Some((writer, WriteVerdict::Accepted))
                        }
                        Happening::WriteRejected { writer, .. } => {
                            Some((writer, WriteVerdict::Rejected))
                        }
                        _ => None,
                    })
                    .nth((*nth as usize).saturating_sub(1));
                match write {
                    None => Err(format!(
                        "expected a write number {nth}, but fewer writes reached the resource"
                    )),
                    Some((writer, verdict)) if cast.name(writer) == by && verdict == *outcome => {
                        Ok(())
                    }
                    Some((writer, verdict)) => Err(format!(
                        "expected write {nth} by {by} to be {}, but it was {}'s and {}",
                        verdict_word(*outcome),
                        cast.name(writer),
                        verdict_word(verdict)
                    )),
                }
            }
            Expectation::Result { client, result } => {
                let node = cast.find(client);
                let finished = sim
                    .trace()
                    .iter()
                    .rev()
                    .filter_map(|e| e.happening.job_result())
                    .find_map(|(c, result)| (Some(c) == node).then_some(result));
                match finished {
                    Some(actual) if actual.kind() == *result => Ok(()),
                    Some(actual) => Err(format!(
                        "expected {client} to end {}, but it ended {}",
                        result.name(),
                        actual.kind().name()
                    )),
                    None => Err(format!(
                        "expected {client} to end {}, but it never finished",
                        result.name()
                    )),
                }
            }
            Expectation::Event { kind, outcome } => {
                let first = sim.trace().iter().find(|e| e.happening.kind() == *kind);
                match (outcome, first) {
                    (Occurrence::Occurs, Some(_)) | (Occurrence::Never, None) => Ok(()),
                    (Occurrence::Occurs, None) => {
                        Err(format!("expected a {kind} event, but none happened"))
                    }
                    (Occurrence::Never, Some(event)) => Err(format!(
                        "expected no {kind} event, but event {} at {} is one",
                        event.id, event.time
                    )),
                }
            }
            Expectation::FinalValue { value } => match sim.resource_value() {
                actual if actual == *value => Ok(()),
                actual => Err(format!(
                    "expected the resource to end with {value}, but it holds {actual}"
                )),
            },
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

fn verdict_word(verdict: WriteVerdict) -> &'static str {
    match verdict {
        WriteVerdict::Accepted => "accepted",
        WriteVerdict::Rejected => "rejected",
    }
}
