//! The figures an operator of a lock service watches, computed from a run up to a position:
//! how long clients waited for the lock, how long they held it, leases that expired while their
//! holder still believed in them, renewals refused, writes fenced off. Pure: read from the trace
//! (and the run's recorded beliefs), tested natively; the `Monitor` component plots them.

use crate::run::Run;
use lockstep_sim::vocabulary::happening::{Happening, RedlockOutcome};
use lockstep_sim::vocabulary::message::Refusal;
use lockstep_sim::world::ids::NodeId;
use std::collections::BTreeMap;

/// A value observed at a moment of virtual time, by the event with index `event`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub event: usize,
    pub time: u64,
    pub value: u64,
}

/// The operator's figures for the first `position` events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metrics {
    /// Time from asking for the lock (retries included) to getting it, per acquisition.
    pub waits: Vec<Sample>,
    /// Time from getting the lock to letting it go (release, abandon, finish or crash).
    pub holds: Vec<Sample>,
    /// When a lease expired (or was expired) while its holder still believed it held it.
    pub expired_while_held: Vec<Sample>,
    /// When the service refused a renewal.
    pub renewals_refused: Vec<Sample>,
    /// When the resource refused a write for its token or claim.
    pub fenced_writes: Vec<Sample>,
}

/// How many of each figure's samples the first `position` events produced: all that changes
/// while stepping through one run, so a step that adds no sample changes nothing the monitor
/// draws (and it skips the render).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    pub waits: usize,
    pub holds: usize,
    pub expired_while_held: usize,
    pub renewals_refused: usize,
    pub fenced_writes: usize,
}

impl Metrics {
    /// How many samples of each figure stood after the first `position` events: a few binary
    /// searches, not a pass over the trace.
    pub fn shown(&self, position: usize) -> Shown {
        let count = |samples: &[Sample]| samples.partition_point(|s| s.event < position);
        Shown {
            waits: count(&self.waits),
            holds: count(&self.holds),
            expired_while_held: count(&self.expired_while_held),
            renewals_refused: count(&self.renewals_refused),
            fenced_writes: count(&self.fenced_writes),
        }
    }

    /// The figures as they stood after the first `position` events: a cut of the whole run's.
    pub fn until(&self, position: usize) -> Metrics {
        let shown = self.shown(position);
        Metrics {
            waits: self.waits[..shown.waits].to_vec(),
            holds: self.holds[..shown.holds].to_vec(),
            expired_while_held: self.expired_while_held[..shown.expired_while_held].to_vec(),
            renewals_refused: self.renewals_refused[..shown.renewals_refused].to_vec(),
            fenced_writes: self.fenced_writes[..shown.fenced_writes].to_vec(),
        }
    }
}

/// The figures of the first `position` events of `run`.
pub fn metrics(run: &Run, position: usize) -> Metrics {
    of_run(run).until(position)
}

/// The figures of the whole run, each sample tagged with its event.
pub fn of_run(run: &Run) -> Metrics {
    let trace = run.sim.trace();
    let mut m = Metrics::default();
    let mut asked: BTreeMap<NodeId, u64> = BTreeMap::new();
    let mut holding: BTreeMap<NodeId, u64> = BTreeMap::new();
    let mut believes: BTreeMap<NodeId, bool> = BTreeMap::new();
    let mut beliefs = run.beliefs.iter().peekable();
    for (index, event) in trace.iter().enumerate() {
        let time = event.time.0;
        let at = |value: u64| Sample {
            event: index,
            time,
            value,
        };
        // Belief as it stood before this event.
        match event.happening {
            Happening::LeaseExpired { holder, .. } | Happening::LeaseForcedToExpire { holder }
                if believes.get(&holder).copied().unwrap_or(false) =>
            {
                m.expired_while_held.push(at(0));
            }
            _ => {}
        }
        while let Some(change) = beliefs.next_if(|c| c.event <= index) {
            believes.insert(change.client, change.belief.is_some());
        }
        let got = match event.happening {
            Happening::GotLock { client, .. } => Some(client),
            Happening::RedlockDecided {
                client,
                outcome: RedlockOutcome::Acquired,
                ..
            } => Some(client),
            _ => None,
        };
        if let Some(client) = got {
            if let Some(since) = asked.remove(&client) {
                m.waits.push(at(time - since));
            }
            holding.insert(client, time);
        }
        match event.happening {
            Happening::AskedForLock { client, .. } => {
                asked.entry(client).or_insert(time);
            }
            Happening::GaveUp { client }
            | Happening::SessionExpired {
                client,
                retries_left: None,
            } => {
                asked.remove(&client);
            }
            Happening::Releasing { client, .. }
            | Happening::Abandoned { client, .. }
            | Happening::DeadlinePassed { client, .. }
            | Happening::Finished { client, .. }
            | Happening::Crashed { node: client, .. } => {
                if let Some(since) = holding.remove(&client) {
                    m.holds.push(at(time - since));
                }
                if matches!(
                    event.happening,
                    Happening::Finished { .. } | Happening::Crashed { .. }
                ) {
                    asked.remove(&client);
                }
            }
            Happening::RenewRefused { .. } => m.renewals_refused.push(at(0)),
            Happening::WriteRejected {
                refusal:
                    Refusal::StaleToken { .. }
                    | Refusal::NoToken
                    | Refusal::ClaimedByAnother
                    | Refusal::SequencerInvalid { .. },
                ..
            } => m.fenced_writes.push(at(0)),
            _ => {}
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::scenario::catalogue;

    fn run(id: &str) -> Run {
        let scenario = catalogue::find(id)
            .and_then(|b| b.load().ok())
            .unwrap_or_else(|| panic!("{id} is built in"));
        Run::record(&scenario, scenario.seed, &[]).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_gc_pause_shows_an_expiry_while_held_and_a_fenced_write() {
        let run = run("s2-gc-pause-fenced");
        let all = metrics(&run, usize::MAX);
        assert_eq!(
            all.expired_while_held.len(),
            1,
            "client-a still believed at 1007 ms"
        );
        assert_eq!(all.fenced_writes.len(), 1, "33 < 34");
        assert_eq!(all.waits.len(), 2, "two acquisitions");
        assert!(
            all.holds.iter().any(|h| h.value > 2000),
            "client-a held through its pause"
        );
        let early = metrics(&run, 5);
        assert!(early.expired_while_held.is_empty() && early.fenced_writes.is_empty());
        assert_eq!(early.waits.len(), 1);
    }

    #[test]
    fn unfenced_writes_are_not_counted_as_fenced_and_refused_renewals_are() {
        assert!(
            metrics(&run("s1-gc-pause-unfenced"), usize::MAX)
                .fenced_writes
                .is_empty()
        );
        let stuck = metrics(&run("s8-renewal-paused-with-worker"), usize::MAX);
        assert!(!stuck.renewals_refused.is_empty() || !stuck.expired_while_held.is_empty());
    }
}
