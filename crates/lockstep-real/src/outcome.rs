//! The outcome class of a run: each write the resource accepted or refused, by whom and with
//! which token, in order, the value left at the end, and the invariants broken. A real run and the simulation of the
//! same scenario match when their classes are equal; times are not compared (a real run's
//! differ from run to run). On etcd the tokens are lock keys' create revisions, numbered by the
//! whole store's revision, which counts writes the simulation does not (the store's first key
//! is revision 2; the deletion of a key whose lease expired, an unlock): there, only the
//! tokens' order is compared ([`OutcomeClass::compared_on`]).

use crate::plan::ServicePlan;
use crate::run::RealRun;
use lockstep_sim::analysis::recorded_verdicts::{JUDGED, broken, judge};
use lockstep_sim::scenario::error::ScenarioError;
use lockstep_sim::scenario::types::ResourceSpec;
use lockstep_sim::story::recorded::Request;
use lockstep_sim::vocabulary::happening::Happening;
use lockstep_sim::vocabulary::invariant::{Invariant, InvariantSet};
use lockstep_sim::vocabulary::message::Refusal;
use lockstep_sim::{Scenario, Sim};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeClass {
    pub writes: Vec<Write>,
    pub final_value: i64,
    /// The invariants a recorded history is judged on that the run broke
    /// (`recorded_verdicts::JUDGED`).
    pub broken: InvariantSet,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Write {
    pub client: String,
    /// `None` from a lock service that issues no tokens.
    pub token: Option<u64>,
    pub accepted: bool,
}

impl fmt::Display for OutcomeClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for write in &self.writes {
            let word = if write.accepted {
                "accepted"
            } else {
                "refused"
            };
            match write.token {
                Some(token) => write!(f, "{} {word} {token}; ", write.client)?,
                None => write!(f, "{}'s write {word}; ", write.client)?,
            }
        }
        write!(f, "final value {}", self.final_value)?;
        let broken: Vec<&str> = self.broken.iter().map(Invariant::id).collect();
        if !broken.is_empty() {
            write!(f, "; broke {}", broken.join(", "))?;
        }
        Ok(())
    }
}

impl OutcomeClass {
    /// The class as it is compared for `service`: with each token replaced by its rank among
    /// the class's tokens (1 for the lowest) where the service's tokens are store revisions.
    #[must_use]
    pub fn compared_on(mut self, service: &ServicePlan) -> OutcomeClass {
        if service.tokens_are_store_revisions() {
            let mut tokens: Vec<u64> = self.writes.iter().filter_map(|w| w.token).collect();
            tokens.sort_unstable();
            tokens.dedup();
            for write in &mut self.writes {
                write.token = write
                    .token
                    .and_then(|t| tokens.binary_search(&t).ok())
                    .and_then(|rank| u64::try_from(rank + 1).ok());
            }
        }
        self
    }

    /// The class of a real run, its writes in the order the resource decided them: when each
    /// took effect (`Operation::write_landed_ms`), or for a refused one when its answer came.
    pub fn of_real(run: &RealRun) -> OutcomeClass {
        let mut decided: Vec<_> = run.history.operations.iter().collect();
        decided.sort_by_key(|o| o.write_landed_ms().or(o.answered_ms).unwrap_or(o.at_ms));
        let writes = decided
            .into_iter()
            .filter_map(|o| match o.request {
                // Accepted: its client was told so, or the resource's log says it applied it.
                Request::Write { token, outcome, .. }
                    if outcome.is_some() || o.write_landed_ms().is_some() =>
                {
                    Some(Write {
                        client: o.client.clone(),
                        token,
                        accepted: o.write_landed_ms().is_some(),
                    })
                }
                _ => None,
            })
            .collect();
        OutcomeClass {
            writes,
            final_value: run.final_value,
            broken: broken(&judge(&run.history)),
        }
    }

    /// The class of the simulation's run of `scenario`, played to its end.
    pub fn of_sim(scenario: &Scenario) -> Result<OutcomeClass, ScenarioError> {
        let mut sim = Sim::new(scenario)?;
        sim.run_to_end();
        let cast = sim.cast();
        let mut writes = Vec::new();
        let mut final_value = None;
        let mut broken = InvariantSet::EMPTY;
        for event in sim.trace() {
            for invariant in event.broke.iter().filter(|i| JUDGED.contains(i)) {
                broken = broken.with(invariant);
            }
            let (writer, token, accepted) = match &event.happening {
                Happening::WriteAccepted {
                    writer,
                    token,
                    value,
                    ..
                } => {
                    final_value = Some(*value);
                    (*writer, token.map(|t| t.0), true)
                }
                Happening::WriteRejected { writer, refusal } => {
                    (*writer, presented(refusal), false)
                }
                _ => continue,
            };
            writes.push(Write {
                client: cast.name(writer).to_owned(),
                token,
                accepted,
            });
        }
        let initial = match scenario.resource {
            ResourceSpec::Register { initial_value, .. } => initial_value,
            _ => 0,
        };
        Ok(OutcomeClass {
            writes,
            final_value: final_value.unwrap_or(initial),
            broken,
        })
    }
}

/// The token a refused write carried, where the refusal says it.
fn presented(refusal: &Refusal) -> Option<u64> {
    match refusal {
        Refusal::StaleToken { presented, .. } | Refusal::SequencerInvalid { presented } => {
            Some(presented.0)
        }
        _ => None,
    }
}
