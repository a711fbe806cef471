//! The comparison's Done-when: the role mapping for every ordered pair of services and every
//! intervention kind, the clock-jump comparison and the failover comparisons.

use super::*;
use crate::Sim;
use crate::catalogue;
use crate::chaos::ChaosBackend;
use crate::intervention::{Action, Intervention};
use crate::invariant::Invariant;

fn load(id: &str) -> crate::Scenario {
    catalogue::find(id).unwrap().load().unwrap()
}

/// Replays a scenario on its own, as `lockstep-cli run` would.
fn replay(scenario: &crate::Scenario) -> SideVerdict {
    let mut sim = Sim::new(scenario).unwrap();
    sim.run_to_end();
    SideVerdict::of(service_of(&scenario.lock_service), sim.trace())
}

/// A twin on the same service must break what A broke: mapping by role is a renaming there.
/// Mapping every minority node of the same role onto one node (not one node each) loses
/// Kleppmann's partitions, and client-2 never reaches a majority: this fails.
#[test]
fn against_the_same_service_the_twin_breaks_what_the_original_broke() {
    for id in ["s10-redlock-clock-jump", "s9-failover-loses-the-lock"] {
        let scenario = load(id);
        let service = service_of(&scenario.lock_service);
        let twin = against(&scenario, &[], service).unwrap();
        assert!(twin.verdict_a.broke(Invariant::OneBeliever), "{id}");
        assert!(
            twin.verdict_b.broke(Invariant::OneBeliever),
            "{id}: {}\n{:#?}",
            twin.verdict_line(),
            twin.carried
        );
        assert_eq!(twin.unmapped().count(), 0, "{id}");
    }
}
