//! The violation bands: when each invariant broke (the trace's `broke`), when a state one held
//! again, and which lanes broke it — the lanes its label is anchored to. The lanes come from the
//! run's recorded beliefs and leases (who believes, who holds a lease, right after the event)
//! and from the event itself (the writer of a stale write, the client told a token).
//!
//! Pure and run once per run, with the rest of [`super::Layout::of`].

use super::harm::told;
use super::moment::{Moment, moment};
use crate::run::Run;
use lockstep_sim::engine::trace::TraceEvent;
use lockstep_sim::vocabulary::happening::Happening;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::world::ids::NodeId;
use std::collections::BTreeSet;

/// An invariant broken by the event at `from`. A state invariant (one believer, one lease) can
/// hold again: `to` is when. A history invariant stays broken: `to` is `None`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Band {
    pub invariant: Invariant,
    pub from: Moment,
    pub to: Option<Moment>,
    /// The lanes that broke it, where its label goes: the clients that both believe, the
    /// service nodes that both hold a lease, the client told a token that did not increase, the
    /// client whose write (or charge) broke a data invariant.
    pub lanes: Vec<usize>,
}

/// Who believes it holds the lock and who holds a lease, as the run's recorded changes go.
#[derive(Default)]
struct Holders {
    believers: BTreeSet<NodeId>,
    /// The service nodes with a live (or stored) lease.
    leases: BTreeSet<NodeId>,
    next_belief: usize,
    next_lease: usize,
}

impl Holders {
    /// Applies every change recorded at or before event `index`.
    fn catch_up(&mut self, run: &Run, index: usize) {
        while let Some(change) = run
            .beliefs
            .get(self.next_belief)
            .filter(|c| c.event <= index)
        {
            if change.belief.is_some() {
                self.believers.insert(change.client);
            } else {
                self.believers.remove(&change.client);
            }
            self.next_belief += 1;
        }
        while let Some(change) = run.leases.get(self.next_lease).filter(|c| c.event <= index) {
            if change.lease.is_some() {
                self.leases.insert(change.node);
            } else {
                self.leases.remove(&change.node);
            }
            self.next_lease += 1;
        }
    }
}

pub(super) fn bands(run: &Run, lane: &impl Fn(NodeId) -> usize) -> Vec<Band> {
    let trace = run.sim.trace();
    let mut bands: Vec<Band> = Vec::new();
    let mut holders = Holders::default();
    for (index, event) in trace.iter().enumerate() {
        let at = moment(event);
        for band in bands.iter_mut().filter(|b| b.to.is_none()) {
            if !band.invariant.is_history() && !event.violated.contains(band.invariant) {
                band.to = Some(at);
            }
        }
        if event.broke.is_empty() {
            continue;
        }
        holders.catch_up(run, index);
        for invariant in event.broke.iter() {
            let mut lanes: Vec<usize> = culprits(run, event, invariant, &holders)
                .into_iter()
                .map(lane)
                .filter(|&l| l != usize::MAX)
                .collect();
            lanes.sort_unstable();
            lanes.dedup();
            bands.push(Band {
                invariant,
                from: at,
                to: None,
                lanes,
            });
        }
    }
    bands
}

/// The nodes that broke `invariant` at `event`; the event's actor when nothing names them.
fn culprits(run: &Run, event: &TraceEvent, invariant: Invariant, holders: &Holders) -> Vec<NodeId> {
    let named: Vec<NodeId> = match invariant {
        Invariant::OneBeliever => holders.believers.iter().copied().collect(),
        Invariant::OneLease => holders.leases.iter().copied().collect(),
        Invariant::TokensIncrease => told(&run.sim, event)
            .into_iter()
            .map(|(client, _)| client)
            .collect(),
        Invariant::NoStaleWrite
        | Invariant::OneWriterPerToken
        | Invariant::NoLostUpdate
        | Invariant::NoDoubleCharge => writer(&event.happening).into_iter().collect(),
    };
    if named.is_empty() {
        vec![event.actor]
    } else {
        named
    }
}

/// Who wrote (or bought, or paid) in an accepted write.
fn writer(happening: &Happening) -> Option<NodeId> {
    match *happening {
        Happening::WriteAccepted { writer, .. } => Some(writer),
        Happening::StockTaken { buyer, .. } => Some(buyer),
        Happening::ChargeApplied { payer, .. } => Some(payer),
        _ => None,
    }
}
