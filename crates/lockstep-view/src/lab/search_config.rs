//! The counterexample search's configuration from the settings its address gives
//! ([`SearchSpec`]) and a loaded scenario: the scenario without its own faults and
//! expectations, the fencing set, the invariant chosen (or the one the scenario costs the data
//! most by breaking), the chosen kinds of fault at their default lengths.
//!
//! What this module must not do: read or write the address (`crate::link::search` does), or
//! run the search.

use crate::link::search::{FaultKind, FencingChoice, SearchSpec};
use lockstep_sim::analysis::search::{Bounds, FaultBudget, SearchConfig};
use lockstep_sim::scenario::expectation::{Expectation, InvariantOutcome};
use lockstep_sim::scenario::types::Scenario;
use lockstep_sim::vocabulary::invariant::Invariant;

impl SearchSpec {
    /// The invariant searched for on `scenario`: the one chosen, else of those the scenario
    /// expects to break the one that costs the data most, else "no stale write".
    pub fn invariant_for(&self, scenario: &Scenario) -> Invariant {
        const BY_DAMAGE: [Invariant; 7] = [
            Invariant::NoStaleWrite,
            Invariant::NoLostUpdate,
            Invariant::NoDoubleCharge,
            Invariant::OneWriterPerToken,
            Invariant::TokensIncrease,
            Invariant::OneLease,
            Invariant::OneBeliever,
        ];
        let expected = |candidate: &Invariant| {
            scenario.expectations.iter().any(|expectation| {
                *expectation
                    == Expectation::Invariant {
                        invariant: *candidate,
                        outcome: InvariantOutcome::Violated,
                    }
            })
        };
        self.invariant.unwrap_or_else(|| {
            BY_DAMAGE
                .into_iter()
                .find(expected)
                .unwrap_or(Invariant::NoStaleWrite)
        })
    }

    /// The search configuration on the loaded `scenario`: its own faults and expectations left
    /// out (the search chooses the faults), the fencing set, the chosen kinds at their default
    /// lengths ([`FaultBudget::defaults_for`]).
    pub fn config(&self, scenario: &Scenario) -> SearchConfig {
        let invariant = self.invariant_for(scenario);
        let mut base = scenario.clone();
        base.interventions.clear();
        base.expectations.clear();
        if let FencingChoice::Set(fencing) = self.fencing {
            base.resource = base.resource.with_fencing(fencing);
        }
        let all = FaultBudget::defaults_for(&base, self.faults);
        let chosen = |kind| self.kinds.contains(&kind);
        let faults = FaultBudget {
            max: self.faults,
            pauses: if chosen(FaultKind::Pauses) {
                all.pauses
            } else {
                Vec::new()
            },
            partitions: if chosen(FaultKind::Partitions) {
                all.partitions
            } else {
                Vec::new()
            },
            clock_jumps: if chosen(FaultKind::ClockJumps) {
                all.clock_jumps
            } else {
                Vec::new()
            },
            message_delays: if chosen(FaultKind::MessageDelays) {
                all.message_delays
            } else {
                Vec::new()
            },
            ..FaultBudget::default()
        };
        SearchConfig {
            base,
            invariant,
            faults,
            bounds: Bounds {
                max_events: self.max_events,
                ..Bounds::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::scenario::catalogue;

    #[test]
    fn the_configuration_takes_the_scenario_without_its_faults() {
        let scenario = catalogue::find("s1-gc-pause-unfenced")
            .and_then(|b| b.load().ok())
            .expect("S1");
        let config = SearchSpec::default().config(&scenario);
        assert!(config.base.interventions.is_empty() && config.base.expectations.is_empty());
        assert_eq!(
            config.invariant,
            Invariant::NoStaleWrite,
            "S1 expects it to break"
        );
        assert_eq!(config.faults.pauses.len(), 1);
        assert!(config.faults.partitions.is_empty() && config.faults.message_delays.is_empty());
        config.validate().expect("a valid search");
    }
}
