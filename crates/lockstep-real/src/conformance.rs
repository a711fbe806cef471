//! The conformance table: each case (a scenario of the catalogue on a real service) run for
//! real several times, each run's outcome class compared with the simulation's. A real run is
//! not exactly repeatable (its times are the machine's), so a case says how often it matched.

use crate::outcome::OutcomeClass;
use crate::plan::{Plan, Unmade, Unsupported};
use crate::run::run;
use crate::run_error::RunError;
use crate::servers::Servers;
use lockstep_sim::scenario::catalogue;
use lockstep_sim::scenario::error::ScenarioError;
use lockstep_sim::story::recorded::RecordedHistory;
use std::fmt::Write as _;
use std::time::Instant;
use thiserror::Error;

/// The scenarios played for real, each deciding a lesson. On PostgreSQL's lock row: a paused
/// client's stale write refused by the resource (S2), let in without fencing (S1), and let in
/// with fencing on because it lands before the new holder's first write (S3, the fencing gap).
/// On one Redis: a release by plain `DEL` deletes the next holder's lock and lets a third
/// client in beside it; the compare-and-delete script does not (S6). On a Redis primary and
/// its replica: the primary crashes before its write reaches the replica, the replica is
/// promoted without the key, and a second client takes the same lock (S9); with a token
/// counter beside the key, the promoted replica hands out the same token again, and the
/// resource accepts both writes with it (S9, tokens). On five independent Redis nodes
/// (Redlock), a jump of one node's wall clock lets two clients lock overlapping majorities
/// (S10); a node killed and started again empty lets the second client lock it too (S11), and
/// with the Redis docs' delayed restart it is still down when the second client asks (S11). A
/// client that renews its 1-s lease while it works 2 s checks `heldSafely()` before
/// writing: measured from the acquisition, the renewed lease looks expired and it does not
/// write; measured from its last renewal, it writes (S8). On a three-member etcd cluster: a
/// client cut off from every member loses its session and writes beside the next holder (S14);
/// a waiter whose lease ran out is still told it holds the lock (S18, etcd 3.4), and is told its
/// session expired on etcd 3.5, which re-checks (S18, the fix). And a write
/// held 1.5 s on a slow link lands after the next holder's, though its client crashed long
/// before: the register's own log shows it (S4).
pub const CASES: [&str; 16] = [
    "s2-gc-pause-fenced",
    "s1-gc-pause-unfenced",
    "s4-delayed-packet",
    "s3-fencing-gap",
    "s8-held-safely-from-acquisition",
    "s8-held-safely-corrected",
    "s6-plain-del-release",
    "s6-compare-and-delete-release",
    "s9-failover-loses-the-lock",
    "s9-failover-reissues-a-token",
    "s10-redlock-clock-jump",
    "s11-redlock-crash-restart",
    "s11-redlock-delayed-restart",
    "s14-consensus-client-partitioned",
    "s18-etcd-3-4-3-lock-bug",
    "s18-etcd-lock-rechecks-the-lease",
];

/// The cases too long for every test run, played by `cargo xtask real --all`: a lease check
/// just before the write passes, and a 10-s pause between the check and the write lets the
/// stale write in anyway (S5, about 11 s a run); a lease of 30 s that runs out under 45 s of
/// work, on one Redis, so the next holder's increment is lost (S7, about 51 s a run).
pub const LONG_CASES: [&str; 2] = ["s5-check-then-write", "s7-ttl-shorter-than-work"];

/// A case's first run that matched, to keep: the service's id (`ServicePlan::id`) and what
/// the run recorded.
pub struct Recorded {
    pub service: &'static str,
    pub history: RecordedHistory,
}

/// One case's line of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub scenario: String,
    pub service: String,
    pub runs: u32,
    pub matched: u32,
    pub seconds: f64,
    /// The simulation's class, and the first real run's that differed from it, if any.
    pub simulated: String,
    pub first_mismatch: Option<String>,
}

/// Why a case of the suite could not be played: each names the case.
#[derive(Debug, Error)]
pub enum CaseError {
    #[error("{id} is not in the catalogue")]
    NotInCatalogue { id: String },
    /// Its scenario cannot be played for real.
    #[error("{id}: {why}")]
    Unsupported { id: String, why: Unsupported },
    /// A fault of its scenario is not made for real: a run without it is no case.
    #[error("{id} cannot be a case of the suite: {unmade}")]
    Unmade { id: String, unmade: Unmade },
    /// The simulation of its scenario failed.
    #[error("{id}: {why}")]
    Simulation { id: String, why: ScenarioError },
    /// A run could not be set up or finished.
    #[error("{id}: {why}")]
    Run { id: String, why: RunError },
}

/// Runs `id` `runs` times on `servers` and compares each run with the simulation; with the
/// first run that matched, as recorded.
pub fn case(servers: &Servers, id: &str, runs: u32) -> Result<(Row, Option<Recorded>), CaseError> {
    let id_owned = || id.to_owned();
    let scenario = catalogue::find(id)
        .and_then(|b| b.load().ok())
        .ok_or_else(|| CaseError::NotInCatalogue { id: id_owned() })?;
    let plan = Plan::of(&scenario).map_err(|why| CaseError::Unsupported {
        id: id_owned(),
        why,
    })?;
    if let Some(unmade) = plan.faults.unmade.first() {
        return Err(CaseError::Unmade {
            id: id_owned(),
            unmade: unmade.clone(),
        });
    }
    let simulated = OutcomeClass::of_sim(&scenario).map_err(|why| CaseError::Simulation {
        id: id_owned(),
        why,
    })?;
    let compared = simulated.clone().compared_on(&plan.service);
    let started = Instant::now();
    let mut matched = 0;
    let mut first_mismatch = None;
    let mut recorded = None;
    let mut against = Vec::new();
    for _ in 0..runs {
        let real_run = run(servers, &plan).map_err(|why| CaseError::Run {
            id: id_owned(),
            why,
        })?;
        let real = OutcomeClass::of_real(&real_run);
        against.clone_from(&real_run.history.recorded.against);
        if real.clone().compared_on(&plan.service) == compared {
            matched += 1;
            recorded.get_or_insert(Recorded {
                service: plan.service.id(),
                history: real_run.history,
            });
        } else if first_mismatch.is_none() {
            first_mismatch = Some(real.to_string());
        }
    }
    let row = Row {
        scenario: id.to_owned(),
        service: service_name(&against),
        runs,
        matched,
        seconds: started.elapsed().as_secs_f64(),
        simulated: simulated.to_string(),
        first_mismatch,
    };
    Ok((row, recorded))
}

/// The rows as a Markdown table, then each mismatch in words.
pub fn table(rows: &[Row]) -> String {
    let mut text = String::from(
        "| scenario | service | runs | matched | time | outcome (the simulation's) |\n\
         |---|---|---:|---:|---:|---|\n",
    );
    for row in rows {
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {:.1} s | {} |",
            row.scenario, row.service, row.runs, row.matched, row.seconds, row.simulated
        );
    }
    for row in rows {
        if let Some(real) = &row.first_mismatch {
            let _ = writeln!(text, "\n{}: a real run saw {real}", row.scenario);
        }
    }
    text
}

/// The lock service's name and version, and the resource's where it is another server, as the
/// run recorded them.
fn service_name(against: &[String]) -> String {
    match against {
        [service, resource] => format!("{service} (resource: {resource})"),
        [service] => service.clone(),
        _ => against.join(", "),
    }
}
