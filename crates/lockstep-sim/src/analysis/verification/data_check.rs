//! The article's chaos test, judged on the data. Every client does a read-modify-write that
//! adds one to the register, so a correct run is one in which
//! - the accepted writes, applied one after another in the order the resource accepted them,
//!   give exactly the register's final value (each write sets one more than the write before
//!   it), and
//! - every increment a client was told was applied is in the final value: following each write
//!   back to the version it was computed from, from the last write to the first, passes through
//!   the version that client was told about.
//!
//! "No stale write" is not the check: it says a zombie's write was accepted after a newer grant,
//! not whether an update was lost by it (in the gap before a new holder's first write, one is
//! lost only if the new holder read before it), and lost updates are what the article's test
//! is about.

use super::evidence::{Divergence, LostIncrement};
use super::finding::Finding;
use crate::engine::sim::Sim;
use crate::scenario::types::Scenario;
use crate::vocabulary::happening::Happening;
use crate::vocabulary::message::WriteOutcome;
use std::collections::{BTreeMap, BTreeSet};

/// Runs `scenario` (read-modify-write increments on a register, as in a chaos run) and judges
/// its data.
pub fn data_check(scenario: &Scenario) -> Finding {
    let mut sim = match Sim::new(scenario) {
        Ok(sim) => sim,
        Err(error) => return Finding::CannotRun(error.to_string()),
    };
    let initial = sim.resource_value();
    sim.run_to_end();
    judge_data(&sim, initial)
}

/// Judges the data of a finished run whose register started at `initial`.
pub fn judge_data(sim: &Sim, initial: i64) -> Finding {
    let mut serial = initial;
    let mut accepted = 0u32;
    let mut divergence = None;
    // Each version the register reached, and the version its write was computed from.
    let mut computed_from = BTreeMap::new();
    let mut last_version = None;
    let mut told = Vec::new();
    for event in sim.trace() {
        match event.happening {
            Happening::WriteAccepted {
                writer,
                value,
                version,
                overwrote_unseen,
                ..
            } => {
                accepted += 1;
                serial = serial.saturating_add(1);
                if value != serial && divergence.is_none() {
                    divergence = Some(Divergence {
                        nth: accepted,
                        writer: sim.cast().name(writer).to_owned(),
                        wrote: value,
                        serial,
                    });
                }
                let read = overwrote_unseen.map_or(version.saturating_sub(1), |u| u.read_version);
                computed_from.insert(version, read);
                last_version = Some(version);
            }
            Happening::WriteAnswered {
                client,
                outcome: WriteOutcome::Accepted { version },
                ..
            } => told.push((client, version)),
            _ => {}
        }
    }
    let mut kept = BTreeSet::new();
    let mut version = last_version;
    while let Some(v) = version {
        kept.insert(v);
        version = computed_from.get(&v).copied();
    }
    let lost: Vec<LostIncrement> = told
        .iter()
        .filter(|(_, version)| !kept.contains(version))
        .map(|&(client, version)| LostIncrement {
            client: sim.cast().name(client).to_owned(),
            version,
        })
        .collect();
    Finding::ChaosData {
        accepted,
        told: u32::try_from(told.len()).unwrap_or(u32::MAX),
        initial,
        serial,
        final_value: sim.resource_value(),
        divergence,
        told_but_lost: u32::try_from(lost.len()).unwrap_or(u32::MAX),
        first_told_but_lost: lost.into_iter().next(),
    }
}
