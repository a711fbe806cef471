//! Checking a finished run against a scenario's expectations: the analysis half of
//! `scenario::expectation`, which may use the engine.

use crate::engine::sim::Sim;
use crate::scenario::expectation::{Expectation, InvariantOutcome, Occurrence, WriteVerdict};
use crate::vocabulary::happening::{Happening, ResultKind};
use crate::vocabulary::invariant::Invariant;

/// Checks `expectation` against a finished run; the error says what happened instead.
pub fn check(expectation: &Expectation, sim: &Sim) -> Result<(), String> {
    match expectation {
        Expectation::Invariant { invariant, outcome } => check_invariant(sim, *invariant, *outcome),
        Expectation::Write { nth, by, outcome } => check_write(sim, *nth, by, *outcome),
        Expectation::Result { client, result } => check_result(sim, client, *result),
        Expectation::Event { kind, outcome } => check_event(sim, kind, *outcome),
        Expectation::FinalValue { value } => match sim.resource_value() {
            actual if actual == *value => Ok(()),
            actual => Err(format!(
                "expected the resource to end with {value}, but it holds {actual}"
            )),
        },
    }
}

/// An invariant holds throughout, or some event broke it.
fn check_invariant(
    sim: &Sim,
    invariant: Invariant,
    outcome: InvariantOutcome,
) -> Result<(), String> {
    let broken_at = sim.trace().iter().find(|e| e.violated.contains(invariant));
    match (outcome, broken_at) {
        (InvariantOutcome::Holds, None) | (InvariantOutcome::Violated, Some(_)) => Ok(()),
        (InvariantOutcome::Holds, Some(event)) => Err(format!(
            "expected \"{invariant}\" to hold, but event {} at {} broke it",
            event.id, event.time
        )),
        (InvariantOutcome::Violated, None) => Err(format!(
            "expected \"{invariant}\" to be violated, but it held throughout"
        )),
    }
}

/// The `nth` request to reach the resource was `by`'s and had `outcome`.
fn check_write(sim: &Sim, nth: u32, by: &str, outcome: WriteVerdict) -> Result<(), String> {
    let cast = sim.cast();
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
            Happening::WriteRejected { writer, .. } => Some((writer, WriteVerdict::Rejected)),
            _ => None,
        })
        .nth((nth as usize).saturating_sub(1));
    match write {
        None => Err(format!(
            "expected a write number {nth}, but fewer writes reached the resource"
        )),
        Some((writer, verdict)) if cast.name(writer) == by && verdict == outcome => Ok(()),
        Some((writer, verdict)) => Err(format!(
            "expected write {nth} by {by} to be {}, but it was {}'s and {}",
            verdict_word(outcome),
            cast.name(writer),
            verdict_word(verdict)
        )),
    }
}

/// `client`'s last job ended with `result`.
fn check_result(sim: &Sim, client: &str, result: ResultKind) -> Result<(), String> {
    let node = sim.cast().find(client);
    let finished = sim
        .trace()
        .iter()
        .rev()
        .filter_map(|e| e.happening.job_result())
        .find_map(|(c, result)| (Some(c) == node).then_some(result));
    match finished {
        Some(actual) if actual.kind() == result => Ok(()),
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

/// An event of `kind` occurs, or never does.
fn check_event(sim: &Sim, kind: &str, outcome: Occurrence) -> Result<(), String> {
    let first = sim.trace().iter().find(|e| e.happening.kind() == kind);
    match (outcome, first) {
        (Occurrence::Occurs, Some(_)) | (Occurrence::Never, None) => Ok(()),
        (Occurrence::Occurs, None) => Err(format!("expected a {kind} event, but none happened")),
        (Occurrence::Never, Some(event)) => Err(format!(
            "expected no {kind} event, but event {} at {} is one",
            event.id, event.time
        )),
    }
}

fn verdict_word(verdict: WriteVerdict) -> &'static str {
    match verdict {
        WriteVerdict::Accepted => "accepted",
        WriteVerdict::Rejected => "rejected",
    }
}
