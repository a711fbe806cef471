//! A scenario that passed [`Scenario::check`], with the cast that check named: the only form
//! of a scenario the engine runs (`Sim::from_checked`), so that an unchecked scenario cannot
//! reach it. It is made by `check` alone and holds nothing else.

use crate::scenario::cast::Cast;
use crate::scenario::types::Scenario;

/// A checked scenario and its cast. Borrowed: checking copies nothing of the scenario.
#[derive(Clone, Debug)]
pub struct CheckedScenario<'a> {
    scenario: &'a Scenario,
    cast: Cast,
}

impl<'a> CheckedScenario<'a> {
    /// Only `Scenario::check` makes one, once it has passed.
    pub(crate) fn new(scenario: &'a Scenario, cast: Cast) -> CheckedScenario<'a> {
        CheckedScenario { scenario, cast }
    }

    /// The scenario as written.
    pub fn scenario(&self) -> &'a Scenario {
        self.scenario
    }

    /// Its nodes' names, indexed by `NodeId`.
    pub fn cast(&self) -> &Cast {
        &self.cast
    }

    /// Its cast, for the engine to keep.
    pub fn into_cast(self) -> Cast {
        self.cast
    }
}
