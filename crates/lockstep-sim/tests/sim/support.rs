//! Small helpers shared by the whole-run tests.

use lockstep_sim::happening::Happening;
use lockstep_sim::ids::NodeId;
use lockstep_sim::resource::Fencing;
use lockstep_sim::token::FencingToken;
use lockstep_sim::{Scenario, Sim, catalogue};
use std::collections::BTreeMap;

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

/// Checks the tokens clients were told they hold, from the clients' side of the trace: each
/// client is told ever higher tokens, and no token is told to two clients. Says where not.
pub fn tokens_told_increase(sim: &Sim) -> Result<(), String> {
    let mut holder_of: BTreeMap<FencingToken, NodeId> = BTreeMap::new();
    let mut latest: BTreeMap<NodeId, FencingToken> = BTreeMap::new();
    for event in sim.trace() {
        let Happening::GotLock {
            client,
            token: Some(token),
            ..
        } = event.happening
        else {
            continue;
        };
        let name = |node| sim.cast().name(node).to_owned();
        if let Some(&before) = latest.get(&client).filter(|before| **before >= token) {
            return Err(format!(
                "event {}: {} is told token {token} after token {before}",
                event.id,
                name(client)
            ));
        }
        latest.insert(client, token);
        let first = *holder_of.entry(token).or_insert(client);
        if first != client {
            return Err(format!(
                "event {}: {} is told token {token}, which {} was told before",
                event.id,
                name(client),
                name(first)
            ));
        }
    }
    Ok(())
}
