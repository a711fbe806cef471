//! `lockstep-real [--runs N] [--record DIR] [--all] [--only ID]…`: starts PostgreSQL and Redis on loopback
//! (each run starts the servers it changes for itself: a Redis primary and replica, Redlock's
//! five nodes, a three-member etcd cluster), runs every case of the conformance suite N times (default 3) — with `--all`, the long cases
//! too ([`LONG_CASES`]) — prints the table, stops the servers, and fails when a run did not
//! match the simulation. `--only ID` (as often as needed) plays those cases of the suite alone,
//! so that one service's recordings can be made again without replaying the rest; an id that
//! is no case of the suite is refused, not skipped. With `--record`, each case's
//! first run that matched is written to `DIR/<scenario>.<service>.json` as a recorded history
//! (the site's recordings: `cargo xtask real --record` writes `content/recorded/`).
//! `cargo xtask real` runs it.

use lockstep_real::conformance::{CASES, CaseError, LONG_CASES, Recorded, case, table};
use lockstep_real::postgres::PostgresServer;
use lockstep_real::redis::RedisServer;
use lockstep_real::server::ServerError;
use lockstep_real::servers::Servers;
use std::process::ExitCode;
use thiserror::Error;

const DEFAULT_RUNS: u32 = 3;

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(why) => {
            eprintln!("lockstep-real: {why}");
            ExitCode::from(2)
        }
    }
}

/// Why the suite could not run to its table.
#[derive(Debug, Error)]
enum SuiteError {
    #[error("usage: lockstep-real [--runs N] [--record DIR] [--all] [--only ID]…")]
    Usage,
    #[error("--only {0}: no case of the suite (with --all, its long cases too) has that id")]
    NoSuchCase(String),
    #[error("--runs takes a whole number above 0, not `{0}`")]
    Runs(String),
    #[error(transparent)]
    Server(#[from] ServerError),
    #[error(transparent)]
    Case(#[from] CaseError),
    #[error("{path}: {why}")]
    Json {
        path: String,
        why: serde_json::Error,
    },
    #[error("{path}: {why}")]
    Write { path: String, why: std::io::Error },
}

/// Whether every run matched.
fn run() -> Result<bool, SuiteError> {
    let Options {
        runs,
        record,
        all,
        only,
    } = options(&std::env::args().skip(1).collect::<Vec<_>>())?;
    // Before any server starts: a mistyped id is said at once, not after the servers' start.
    let chosen = chosen_cases(all, &only)?;
    eprintln!("starting PostgreSQL and Redis on loopback");
    let postgres = PostgresServer::start()?;
    eprintln!("{} on port {}", postgres.version, postgres.port());
    let redis = RedisServer::start()?;
    eprintln!("{} on port {}", redis.version, redis.port());
    let servers = Servers {
        postgres: &postgres,
        redis: Some(&redis),
    };
    let mut rows = Vec::new();
    for id in chosen {
        eprintln!("{id}: {runs} run(s)");
        let (row, recorded) = case(&servers, id, runs)?;
        if let (Some(dir), Some(Recorded { service, history })) = (&record, recorded) {
            let path = format!("{dir}/{id}.{service}.json");
            let json = serde_json::to_string_pretty(&history.to_file()).map_err(|why| {
                SuiteError::Json {
                    path: path.clone(),
                    why,
                }
            })?;
            std::fs::write(&path, json + "\n").map_err(|why| SuiteError::Write {
                path: path.clone(),
                why,
            })?;
            eprintln!("recorded {path}");
        }
        rows.push(row);
    }
    drop(redis);
    drop(postgres);
    println!("{}", table(&rows));
    Ok(rows.iter().all(|row| row.matched == row.runs))
}

/// The cases to play, in the suite's order: every case (with `all`, the long ones too), or
/// those `only` names, each of which must be one of them.
fn chosen_cases(all: bool, only: &[String]) -> Result<Vec<&'static str>, SuiteError> {
    let long: &[&'static str] = if all { &LONG_CASES } else { &[] };
    let suite: Vec<&'static str> = CASES.iter().chain(long).copied().collect();
    if let Some(missing) = only.iter().find(|id| !suite.contains(&id.as_str())) {
        return Err(SuiteError::NoSuchCase(missing.clone()));
    }
    Ok(suite
        .into_iter()
        .filter(|id| only.is_empty() || only.iter().any(|o| o == id))
        .collect())
}

struct Options {
    runs: u32,
    record: Option<String>,
    all: bool,
    /// The cases to play, when not all of them.
    only: Vec<String>,
}

fn options(args: &[String]) -> Result<Options, SuiteError> {
    let mut options = Options {
        runs: DEFAULT_RUNS,
        record: None,
        all: false,
        only: Vec::new(),
    };
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        if flag == "--all" {
            options.all = true;
            continue;
        }
        let value = args.next();
        match (flag.as_str(), value) {
            ("--runs", Some(n)) => {
                options.runs = n
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| SuiteError::Runs(n.clone()))?;
            }
            ("--record", Some(dir)) => options.record = Some(dir.clone()),
            ("--only", Some(id)) => options.only.push(id.clone()),
            _ => return Err(SuiteError::Usage),
        }
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn only_plays_the_cases_it_names_in_the_suites_order() {
        let options = options(&args(&[
            "--only",
            "s18-etcd-3-4-3-lock-bug",
            "--only",
            "s14-consensus-client-partitioned",
        ]))
        .expect("reads");
        let chosen = chosen_cases(options.all, &options.only).expect("both are cases");
        assert_eq!(
            chosen,
            [
                "s14-consensus-client-partitioned",
                "s18-etcd-3-4-3-lock-bug"
            ]
        );
        assert_eq!(chosen_cases(false, &[]).expect("all").len(), CASES.len());
    }

    #[test]
    fn only_refuses_an_id_that_is_no_case() {
        let long = ["s5-check-then-write".to_owned()];
        assert!(matches!(
            chosen_cases(false, &long),
            Err(SuiteError::NoSuchCase(id)) if id == "s5-check-then-write"
        ));
        assert_eq!(chosen_cases(true, &long).expect("with --all").len(), 1);
        assert!(matches!(
            options(&args(&["--only"])),
            Err(SuiteError::Usage)
        ));
    }
}
