//! The comparison's one-line verdict, computed from the two runs: for each side, the invariant
//! that broke first and when (virtual ms), or that none did. No text is written per scenario;
//! the phrases are per invariant. This module judges finished traces; it must not run anything.

use crate::analysis::chaos::{Broken, ChaosBackend};
use crate::engine::trace::TraceEvent;
use crate::story::numbers::thousands;
use crate::vocabulary::invariant::Invariant;
use serde::{Deserialize, Serialize};

/// One side's run, judged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideVerdict {
    pub service: ChaosBackend,
    /// Each invariant the run broke, at its first event, in [`Invariant::ALL`]'s order.
    pub broken: Vec<Broken>,
    /// How many events the run had.
    pub events: usize,
}

impl SideVerdict {
    pub fn of(service: ChaosBackend, trace: &[TraceEvent]) -> SideVerdict {
        let broken = Invariant::ALL
            .into_iter()
            .filter_map(|invariant| {
                trace
                    .iter()
                    .position(|event| event.broke.contains(invariant))
                    .map(|first_event| Broken {
                        invariant,
                        first_at: trace[first_event].time,
                        first_event,
                    })
            })
            .collect();
        SideVerdict {
            service,
            broken,
            events: trace.len(),
        }
    }

    /// The violation that came first in the run, if any.
    pub fn first(&self) -> Option<Broken> {
        self.broken.iter().copied().min_by_key(|b| b.first_event)
    }

    pub fn broke(&self, invariant: Invariant) -> bool {
        self.broken.iter().any(|b| b.invariant == invariant)
    }

    /// What happened on this side, after the service's name: "two clients believed they held the
    /// lock from 1,210 ms", or "never" when the other side broke something and this one nothing.
    pub fn phrase(&self, other_broke: bool) -> String {
        match self.first() {
            Some(broken) => what_broke(broken),
            None if other_broke => "never".to_owned(),
            None => "no invariant broke".to_owned(),
        }
    }
}

/// The two runs' verdicts in one line: "Redlock, 5 nodes: two clients believed they held the
/// lock from 1,210 ms; Consensus, 3 replicas: never".
pub fn verdict_line(a: &SideVerdict, b: &SideVerdict) -> String {
    format!(
        "{}: {}; {}: {}",
        a.service.label(),
        a.phrase(b.first().is_some()),
        b.service.label(),
        b.phrase(a.first().is_some())
    )
}

/// The broken invariant as what a learner saw happen, with its first moment. What clients
/// believed is narrated as belief; only the service's own state is stated as fact.
fn what_broke(broken: Broken) -> String {
    let at = thousands(broken.first_at.0);
    match broken.invariant {
        Invariant::OneBeliever => format!("two clients believed they held the lock from {at} ms"),
        Invariant::OneLease => format!("the service kept two unexpired leases from {at} ms"),
        Invariant::TokensIncrease => {
            format!("the service issued a fencing token that was not larger at {at} ms")
        }
        Invariant::NoStaleWrite => {
            format!("the resource accepted a write with a stale token at {at} ms")
        }
        Invariant::OneWriterPerToken => {
            format!("the resource accepted two writers with one token at {at} ms")
        }
        Invariant::NoLostUpdate => format!("an update was lost at {at} ms"),
        Invariant::NoDoubleCharge => format!("a request was charged twice at {at} ms"),
    }
}
