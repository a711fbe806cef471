//! The seed article's three verification tests, runnable against a chosen lock service: a client
//! paused for twice its TTL gets its stale write rejected; a client whose lease expired cannot
//! release the new holder's lock; under a chaos run (180 s, 8 clients, pauses and partitions) at
//! most one writer is accepted per token and no stale write is accepted. Each verdict says why.
//! Pure and deterministic: the same backend always gives the same verdicts.

use crate::run::Run;
use lockstep_sim::chaos::{Chaos, ChaosBackend};
use lockstep_sim::happening::Happening;
use lockstep_sim::invariant::Invariant;
use lockstep_sim::resource::Fencing;
use lockstep_sim::scenario::Scenario;
use lockstep_sim::seed_test;

/// The lock services the tests can run against.
pub const BACKENDS: [(ChaosBackend, &str); 3] = [
    (ChaosBackend::SqlRow, "SQL row (the article's)"),
    (ChaosBackend::Redlock, "Redlock, 5 nodes"),
    (ChaosBackend::Consensus, "Consensus, 3 replicas"),
];

/// One test's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub test: &'static str,
    pub passed: bool,
    pub why: String,
}

/// Runs the three tests against `backend`.
pub fn run_all(backend: ChaosBackend) -> Vec<Verdict> {
    vec![
        stale_write_rejected(backend),
        stale_release_refused(backend),
        one_writer_under_chaos(backend),
    ]
}

fn service_json(backend: ChaosBackend) -> &'static str {
    match backend {
        ChaosBackend::SqlRow => r#"{ "kind": "sql_row" }"#,
        ChaosBackend::Redlock => r#"{ "kind": "redlock", "nodes": 5 }"#,
        ChaosBackend::Consensus => r#"{ "kind": "consensus", "replicas": 3 }"#,
    }
}

/// The seed's two-client scenario on `backend` (see `lockstep_sim::seed_test`).
fn two_clients(backend: ChaosBackend, b_work: u64) -> Option<Scenario> {
    seed_test::two_clients(service_json(backend), "", b_work).ok()
}

fn record(scenario: &Scenario) -> Option<Run> {
    Run::record(scenario, scenario.seed, &[]).ok()
}

const STALE_WRITE: &str = "A client paused for 2 × TTL gets its stale write rejected";
const STALE_RELEASE: &str = "A client whose lease expired cannot release the new holder's lock";
const CHAOS: &str = "At most one accepted writer per token under chaos (180 s, 8 clients)";

fn failed_to_build(test: &'static str) -> Verdict {
    Verdict {
        test,
        passed: false,
        why: "the test's scenario could not be built for this lock service".to_owned(),
    }
}

fn stale_write_rejected(backend: ChaosBackend) -> Verdict {
    let Some(run) = two_clients(backend, 100).and_then(|s| record(&s)) else {
        return failed_to_build(STALE_WRITE);
    };
    let cast = run.sim.cast();
    let (a, b) = (cast.find("client-a"), cast.find("client-b"));
    let mut b_accepted = false;
    let mut a_outcome = None;
    for event in run.sim.trace() {
        match event.happening {
            Happening::WriteAccepted { writer, .. } if Some(writer) == b => b_accepted = true,
            Happening::WriteAccepted { writer, .. } if Some(writer) == a => a_outcome = Some(true),
            Happening::WriteRejected { writer, .. } if Some(writer) == a => a_outcome = Some(false),
            _ => {}
        }
    }
    let (passed, why) = match (b_accepted, a_outcome) {
        (true, Some(false)) => (true, "client-b's write was accepted and client-a's stale one rejected".to_owned()),
        (true, Some(true)) => (false, "client-a's stale write was accepted after client-b's".to_owned()),
        (false, _) => (false, "client-b's write was not accepted either: this service issues no fencing token for the resource to check".to_owned()),
        (true, None) => (false, "client-a never wrote".to_owned()),
    };
    Verdict {
        test: STALE_WRITE,
        passed,
        why,
    }
}

fn stale_release_refused(backend: ChaosBackend) -> Verdict {
    let Some(run) = two_clients(backend, 2_000).and_then(|s| record(&s)) else {
        return failed_to_build(STALE_RELEASE);
    };
    let a = run.sim.cast().find("client-a");
    let release = run.sim.trace().iter().position(|e| {
        matches!(e.happening,
            Happening::Released { client, .. }
            | Happening::ReleaseRefused { client, .. }
            | Happening::ReleasedOthersLock { client, .. } if Some(client) == a)
    });
    let Some(release) = release else {
        return Verdict {
            test: STALE_RELEASE,
            passed: false,
            why: "client-a's release never reached the lock service".to_owned(),
        };
    };
    let holder = run.holder_after(release);
    Verdict {
        test: STALE_RELEASE,
        passed: holder == "client-b",
        why: if holder == "client-b" {
            "after client-a's late release, client-b still holds the lock".to_owned()
        } else {
            format!("after client-a's late release, the lock is held by {holder}, not client-b")
        },
    }
}

fn one_writer_under_chaos(backend: ChaosBackend) -> Verdict {
    let scenario = Chaos::seed_test(1, Fencing::On)
        .with_backend(backend)
        .scenario();
    let Some(run) = record(&scenario) else {
        return failed_to_build(CHAOS);
    };
    let trace = run.sim.trace();
    let accepted = trace
        .iter()
        .filter(|e| matches!(e.happening, Happening::WriteAccepted { .. }))
        .count();
    let violated = trace.last().map(|e| e.violated).unwrap_or_default();
    let broken: Vec<&str> = [Invariant::NoStaleWrite, Invariant::OneWriterPerToken]
        .into_iter()
        .filter(|i| violated.contains(*i))
        .map(Invariant::statement)
        .collect();
    let (passed, why) = if !broken.is_empty() {
        (false, format!("violated: {}", broken.join("; ")))
    } else if accepted == 0 {
        (
            false,
            "no write was accepted at all: without tokens, a fenced resource refuses every write"
                .to_owned(),
        )
    } else {
        (
            true,
            format!(
                "{accepted} writes accepted over {} events, none stale, one writer per token",
                trace.len()
            ),
        )
    };
    Verdict {
        test: CHAOS,
        passed,
        why,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_row_passes_all_three_and_redlock_fails_for_want_of_tokens() {
        let sql = run_all(ChaosBackend::SqlRow);
        assert!(sql.iter().all(|v| v.passed), "{sql:?}");
        let consensus = run_all(ChaosBackend::Consensus);
        assert!(consensus.iter().all(|v| v.passed), "{consensus:?}");
        let redlock = run_all(ChaosBackend::Redlock);
        assert!(!redlock[0].passed, "no token, so no fencing: {redlock:?}");
        assert!(
            redlock[1].passed,
            "compare-and-delete protects the new holder: {redlock:?}"
        );
    }
}
