//! `lockstep-real [--runs N]`: starts PostgreSQL and Redis on loopback, runs every case of the
//! conformance suite N times (default 3), prints the table, stops the servers, and fails when a
//! run did not match the simulation. `cargo xtask real` runs it.

use lockstep_real::conformance::{CASES, case, table};
use lockstep_real::postgres::PostgresServer;
use lockstep_real::redis::RedisServer;
use lockstep_real::run::Servers;
use std::process::ExitCode;

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

/// Whether every run matched.
fn run() -> Result<bool, String> {
    let runs = runs(&std::env::args().skip(1).collect::<Vec<_>>())?;
    eprintln!("starting PostgreSQL and Redis on loopback");
    let postgres = PostgresServer::start().map_err(|e| e.to_string())?;
    eprintln!("{} on port {}", postgres.version, postgres.port());
    let redis = RedisServer::start().map_err(|e| e.to_string())?;
    eprintln!("{} on port {}", redis.version, redis.port());
    let servers = Servers {
        postgres: &postgres,
        redis: Some(&redis),
    };
    let mut rows = Vec::new();
    for id in CASES {
        eprintln!("{id}: {runs} run(s)");
        rows.push(case(&servers, id, runs)?);
    }
    drop(redis);
    drop(postgres);
    println!("{}", table(&rows));
    Ok(rows.iter().all(|row| row.matched == row.runs))
}

fn runs(args: &[String]) -> Result<u32, String> {
    match args {
        [] => Ok(DEFAULT_RUNS),
        [flag, n] if flag == "--runs" => n
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("--runs takes a whole number above 0, not `{n}`")),
        _ => Err("usage: lockstep-real [--runs N]".to_owned()),
    }
}
