//! A simulation kept to resume later, without its trace (see [`Snapshot`]).
//!
//! It neither steps nor changes the run it copies.

use super::Sim;
use crate::engine::trace::TraceEvent;

/// A simulation stopped after its first `events` events, without its trace: the trace of those
/// events is the complete run's first `events` (the same input gives the same events), so it is
/// copied from there when the simulation resumes. Going back to any position is then resuming
/// the last snapshot before it and stepping on, not replaying the run from the start.
#[derive(Clone, Debug)]
pub struct Snapshot {
    events: usize,
    sim: Sim,
}

impl Snapshot {
    /// How many events had happened when the snapshot was taken.
    pub fn events(&self) -> usize {
        self.events
    }

    /// The simulation as it stood, with its trace copied from `trace` — the trace of the same
    /// run, at least as long as the snapshot's. `None` if it is shorter.
    pub fn resume(&self, trace: &[TraceEvent]) -> Option<Sim> {
        let past = trace.get(..self.events)?;
        let mut sim = self.sim.clone();
        sim.trace = Vec::with_capacity(trace.len());
        sim.trace.extend_from_slice(past);
        Some(sim)
    }
}

impl Sim {
    /// This simulation as it stands, kept to resume later (see [`Snapshot`]). Copies the state
    /// of the nodes and the queue, and shares the network's and the timers' records; the trace
    /// is left out.
    pub fn snapshot(&mut self) -> Snapshot {
        let trace = std::mem::take(&mut self.trace);
        let sim = self.clone();
        self.trace = trace;
        Snapshot {
            events: self.trace.len(),
            sim,
        }
    }
}
