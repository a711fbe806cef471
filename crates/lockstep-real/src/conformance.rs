//! The conformance table: each case (a scenario of the catalogue on a real service) run for
//! real several times, each run's outcome class compared with the simulation's. A real run is
//! not exactly repeatable (its times are the machine's), so a case says how often it matched.

use crate::outcome::OutcomeClass;
use crate::plan::Plan;
use crate::postgres::{PostgresServer, run};
use lockstep_sim::scenario::catalogue;
use std::fmt::Write as _;
use std::time::Instant;

/// The scenarios the PostgreSQL runner plays, each deciding a lesson: a paused client's stale
/// write refused by the resource (S2), let in without fencing (S1), and let in with fencing on
/// because it lands before the new holder's first write (S3, the fencing gap).
pub const POSTGRES_CASES: [&str; 3] = [
    "s2-gc-pause-fenced",
    "s1-gc-pause-unfenced",
    "s3-fencing-gap",
];

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

/// Runs `id` `runs` times on `server` and compares each run with the simulation.
pub fn postgres_case(server: &PostgresServer, id: &str, runs: u32) -> Result<Row, String> {
    let scenario = catalogue::find(id)
        .and_then(|b| b.load().ok())
        .ok_or_else(|| format!("{id} is not in the catalogue"))?;
    let plan = Plan::of(&scenario).map_err(|e| format!("{id}: {e}"))?;
    let simulated = OutcomeClass::of_sim(&scenario).map_err(|e| format!("{id}: {e}"))?;
    let started = Instant::now();
    let mut matched = 0;
    let mut first_mismatch = None;
    for _ in 0..runs {
        let observed = run(server, &plan).map_err(|e| format!("{id}: {e}"))?;
        let real = OutcomeClass::of_observed(&observed);
        if real == simulated {
            matched += 1;
        } else if first_mismatch.is_none() {
            first_mismatch = Some(real.to_string());
        }
    }
    Ok(Row {
        scenario: id.to_owned(),
        service: server.version.clone(),
        runs,
        matched,
        seconds: started.elapsed().as_secs_f64(),
        simulated: simulated.to_string(),
        first_mismatch,
    })
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
