//! The shortest run that breaks a promise: a small base drawn from the setup (two clients that
//! each take the lock once, with the user's TTL, worst work and options, and no faults) handed
//! to the counterexample search with the faults the setup allows, at the user's magnitudes. The
//! search is breadth-first (decision 19), so what it finds is a shortest run, and its scenario
//! replays in the playground and in `lockstep-cli run`. It must not read a clock: a search is
//! bounded by states, not time.

use super::generate::Frame;
use super::mapping::Mechanism;
use super::setup::Possible;
use crate::analysis::search::{
    Bounds, Counterexample, FaultBudget, Search, SearchConfig, SearchStatus, ServiceFaults,
};
use crate::models::client::{Repeat, RequestTimeout, RetryPolicy};
use crate::vocabulary::invariant::Invariant;
use crate::world::time::Millis;
use serde::{Deserialize, Serialize};

/// How many states one search may explore before it gives up.
pub const SEARCH_STATES: u64 = 60_000;

/// How many clients the search's base has.
const SEARCH_CLIENTS: usize = 2;

/// What the search found for one promise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "result")]
pub enum Shortest {
    /// The shortest run that breaks it: a scenario that replays it.
    Found { run: Box<Counterexample> },
    /// No run within the bounds breaks it: every state explored.
    NoneWithinBounds { states: u64 },
    /// The search stopped at its state budget before it found one or ran out of states.
    GaveUp { states: u64 },
    /// The setup allows no fault the search could strike.
    NoFaults,
}

/// Searches for the shortest run of `mechanism` (in `frame`) that breaks `invariant`.
pub fn shortest(frame: &Frame, mechanism: &Mechanism, invariant: Invariant) -> Shortest {
    let Some(config) = config(frame, mechanism, invariant) else {
        return Shortest::NoFaults;
    };
    let Ok(mut search) = Search::new(&config) else {
        return Shortest::NoFaults;
    };
    match search.advance(SEARCH_STATES) {
        SearchStatus::Found(run) => Shortest::Found { run },
        SearchStatus::Exhausted { states, .. } => Shortest::NoneWithinBounds { states },
        SearchStatus::Running { states, .. } => Shortest::GaveUp { states },
    }
}

fn config(frame: &Frame, mechanism: &Mechanism, invariant: Invariant) -> Option<SearchConfig> {
    let mut base = frame.scenario(mechanism, 0);
    base.id = "lock-setup".to_owned();
    base.title = "Your lock, two clients".to_owned();
    base.interventions.clear();
    base.clients.truncate(SEARCH_CLIENTS);
    let ttl = frame.ttl.0;
    // A fault strikes only before the next queued input, silent ones too (a request's
    // timeout): a coarse grid would miss the windows between them.
    let step = (ttl / 10).clamp(10, 100);
    // The second client starts just after the first and keeps trying past a lease, so that
    // it contends whenever the first is stopped: the search asks whether a promise can break,
    // not how often, and a contender that gave up early would hide it.
    for (index, client) in base.clients.iter_mut().enumerate() {
        client.work_ms = frame.worst_work;
        client.repeat = Repeat::Once {};
        client.timeout = RequestTimeout::After { ms: Millis(200) };
        // Both start after two steps of the grid, so that a fault can strike before either
        // asks (a partition that leaves the first with a bare majority).
        client.start_ms = Millis(2 * step + if index == 0 { 0 } else { 50 });
        client.retry = RetryPolicy::Fixed {
            delay_ms: Millis((ttl / 5).max(10)),
            attempts: 10,
        };
    }
    let long = 2 * ttl.max(100);
    base.end_ms = Millis(4 * (ttl + frame.worst_work.0 + frame.longest_pause.0) + 1_000);
    let yes = |possible: Possible, length: u64| {
        if possible == Possible::Yes {
            vec![Millis(length)]
        } else {
            Vec::new()
        }
    };
    let mut faults = FaultBudget {
        max: 1,
        pauses: if frame.longest_pause.0 > 0 {
            vec![frame.longest_pause]
        } else {
            Vec::new()
        },
        partitions: yes(frame.partitions, long),
        clock_jumps: if frame.clock_steps == Possible::Yes {
            vec![i64::try_from(long).unwrap_or(i64::MAX)]
        } else {
            Vec::new()
        },
        message_delays: Vec::new(),
        service: ServiceFaults {
            crashes: yes(frame.crashes, long),
            ..ServiceFaults::default()
        },
    };
    let kinds = [
        faults.pauses.is_empty(),
        faults.partitions.is_empty(),
        faults.clock_jumps.is_empty(),
        faults.service.is_empty(),
    ]
    .into_iter()
    .filter(|empty| !empty)
    .count();
    // Two faults where two kinds can strike: Redlock's clock step needs a partition first.
    faults.max = if kinds > 1 { 2 } else { 1 };
    (kinds > 0).then_some(SearchConfig {
        base,
        invariant,
        faults,
        bounds: Bounds {
            step_ms: Millis(step),
            max_events: 300,
        },
    })
}
