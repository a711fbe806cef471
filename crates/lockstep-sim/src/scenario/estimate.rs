//! The first of the run budget's two guards (see `budget`): refusing, before it runs, a scenario
//! whose periodic work alone is over the budget.

use crate::models::client::Repeat;
use crate::scenario::budget::RUN_BUDGET;
use crate::scenario::error::ScenarioError;
use crate::scenario::types::{LockServiceSpec, Scenario};

/// An estimate of the inputs a run of `scenario` handles, from the work that repeats for the
/// whole run: a consensus leader's heartbeats (a timer, and an append and its answer per
/// follower), and the jobs of clients that come back again and again.
pub fn estimated_inputs(scenario: &Scenario) -> u64 {
    let end = scenario.end_ms.0;
    let min_latency = scenario.network.latency_ms[0];
    let (heartbeats, per_request) = match &scenario.lock_service {
        LockServiceSpec::Consensus {
            replicas,
            heartbeat_ms,
            ..
        } => {
            let per_beat = 2 * u64::from(*replicas).saturating_sub(1) + 1;
            ((end / heartbeat_ms.0.max(1)).saturating_mul(per_beat), 2)
        }
        // A Redlock request goes to every node and each answers.
        LockServiceSpec::Redlock { nodes, .. } => (0, 2 * u64::from(*nodes)),
        _ => (0, 2),
    };
    let jobs: u64 = scenario
        .clients
        .iter()
        .map(|client| match client.repeat {
            Repeat::Every { interval_ms } => {
                // At least: acquire, write and release, each a request and its answer, plus the
                // start and work timers.
                let period = interval_ms
                    .0
                    .saturating_add(client.work_ms.0)
                    .saturating_add(min_latency.saturating_mul(6))
                    .max(1);
                let per_job = per_request.saturating_mul(2).saturating_add(4);
                (end / period).saturating_mul(per_job)
            }
            Repeat::Once {} => 0,
        })
        .fold(0, u64::saturating_add);
    heartbeats.saturating_add(jobs)
}

/// Refuses a scenario whose estimate is over the budget, before anything runs.
pub fn check(scenario: &Scenario) -> Result<(), ScenarioError> {
    let estimate = estimated_inputs(scenario);
    if estimate > RUN_BUDGET {
        return Err(ScenarioError::Invalid {
            path: "end_ms".to_owned(),
            reason: format!(
                "this run would simulate about {estimate} inputs (messages and timers), over \
                 the budget of {RUN_BUDGET} per run: shorten end_ms, make the heartbeat or the \
                 clients' repeat interval longer, or use fewer clients or nodes"
            ),
        });
    }
    Ok(())
}
