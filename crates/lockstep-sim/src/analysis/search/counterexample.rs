//! A counterexample: the base scenario with the faults the search struck written in as
//! interventions, so that `lockstep-cli run` (or the playground) replays it event for event, and
//! the expectation that the invariant breaks.

use super::config::SearchConfig;
use crate::engine::sim::Sim;
use crate::scenario::expectation::{Expectation, InvariantOutcome};
use crate::scenario::types::Scenario;
use crate::world::intervention::Intervention;
use serde::{Deserialize, Serialize};
use std::convert::Infallible;

/// The shortest run found that breaks the invariant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counterexample {
    /// The base plus the faults as interventions; replays to the same trace.
    pub scenario: Scenario,
    /// The index in the trace of the event that breaks the invariant.
    pub first_event: usize,
    /// The run's length in events up to and including that one.
    pub length: usize,
    /// How many distinct states the search had found.
    pub states: u64,
}

impl Counterexample {
    /// The counterexample that `sim`, a run of `config`'s base with the search's faults added,
    /// ends with.
    pub(super) fn of(config: &SearchConfig, sim: &Sim, states: u64) -> Counterexample {
        let base = &config.base;
        let cast = sim.cast();
        let struck: Vec<Intervention<String>> = sim.interventions()[base.interventions.len()..]
            .iter()
            .map(|entry| Intervention {
                at_ms: entry.at_ms,
                action: match entry
                    .action
                    .clone()
                    .try_map(|node| Ok::<_, Infallible>(cast.name(node).to_owned()))
                {
                    Ok(action) => action,
                    Err(never) => match never {},
                },
            })
            .collect();
        let faults = struck.len();
        let mut scenario = base.clone();
        scenario.id = counterexample_id(&base.id);
        scenario.title = format!("Counterexample: {}", config.invariant.statement());
        scenario.summary = format!(
            "The shortest run the search found in which \"{}\" breaks: {} with {} intervention{} \
             added by the search.",
            config.invariant.statement(),
            base.title,
            faults,
            if faults == 1 { "" } else { "s" }
        );
        scenario.interventions.extend(struck);
        scenario.expectations = vec![Expectation::Invariant {
            invariant: config.invariant,
            outcome: InvariantOutcome::Violated,
        }];
        let length = sim.trace().len();
        Counterexample {
            scenario,
            first_event: length.saturating_sub(1),
            length,
            states,
        }
    }
}

/// The base's id with a suffix, kept within the 64 characters an id may have.
fn counterexample_id(base: &str) -> String {
    let stem: String = base.chars().take(48).collect();
    format!("{}-counterexample", stem.trim_end_matches('-'))
}
