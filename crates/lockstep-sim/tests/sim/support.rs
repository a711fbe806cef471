//! Small helpers shared by the whole-run tests.

use lockstep_sim::resource::Fencing;
use lockstep_sim::{Scenario, Sim, catalogue};

pub fn built_in(id: &str) -> Scenario {
    catalogue::find(id)
        .expect("built-in exists")
        .load()
        .expect("built-in parses")
}

pub fn run(scenario: &Scenario) -> Sim {
    let mut sim = Sim::new(scenario).expect("scenario is valid");
    sim.run_to_end();
    sim
}

pub fn with_fencing(mut scenario: Scenario, fencing: Fencing) -> Scenario {
    scenario.resource = scenario.resource.with_fencing(fencing);
    scenario
}

/// Parses a scenario written in the test and runs it to the end.
pub fn run_json(json: &str) -> Sim {
    let scenario = Scenario::parse(json).expect("the test scenario parses");
    run(&scenario)
}
