//! `lockstep-cli real <scenario> --service postgres|redis|redis-failover|redlock|etcd [--runs N] [--record
//! FILE]`: the
//! scenario played by real clients against a real lock service and a real PostgreSQL register
//! on loopback (started here, stopped after: `lockstep-real`), its verdicts printed beside the
//! simulation's, and the recorded history written to FILE. Exits 1 when a run's outcome class
//! differs from the simulation's.

use crate::check_trace::verdicts;
use crate::error::CliError;
use crate::source::Source;
use clap::{Args, ValueEnum};
use lockstep_real::outcome::OutcomeClass;
use lockstep_real::plan::Plan;
use lockstep_real::run::run;
use lockstep_real::started::Started;
use std::fmt::Write as _;

#[derive(Debug, PartialEq, Eq, Args)]
pub struct RealArgs {
    /// A scenario file (`.json`) or a built-in id.
    #[arg(value_name = "SCENARIO", value_parser = Source::from_argument)]
    pub source: Source,
    /// The real lock service: the scenario's must be this one.
    #[arg(long, value_enum)]
    pub service: RealService,
    /// How many times to play it.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = crate::args::whole(1..=100u32))]
    pub runs: u32,
    /// Where to write the first run's recorded history.
    #[arg(long, value_name = "FILE")]
    pub record: Option<String>,
}

/// The real services this build plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RealService {
    /// The article's lock row in PostgreSQL.
    Postgres,
    /// One Redis: `SET NX PX`.
    Redis,
    /// A Redis primary and its replica, replicating late; failover promotes the replica.
    RedisFailover,
    /// Redlock on independent Redis nodes, each client linked to each node on its own.
    Redlock,
    /// A three-member etcd cluster: a lease kept alive, and the lock API.
    Etcd,
}

pub fn run_real(args: &RealArgs) -> Result<String, CliError> {
    let scenario = args.source.load()?;
    let plan = Plan::of(&scenario).map_err(|e| args.source.invalid(e.to_string()))?;
    if plan.service.id() != name(args.service) {
        return Err(args.source.invalid(format!(
            "its lock service is played on --service {}, not {}",
            plan.service.id(),
            name(args.service)
        )));
    }
    let simulated =
        OutcomeClass::of_sim(&scenario).map_err(|e| args.source.invalid(e.to_string()))?;
    let started = Started::for_plan(&plan, |line| eprintln!("{line}")).map_err(real_error)?;
    let mut text = String::new();
    for unmade in &plan.faults.unmade {
        let _ = writeln!(text, "not made: {unmade}");
    }
    let mut matched = 0;
    for index in 0..args.runs {
        let real = run(&started.servers(), &plan).map_err(real_error)?;
        let class = OutcomeClass::of_real(&real);
        let compared = class.clone().compared_on(&plan.service);
        if index == 0 {
            text.push_str(&verdicts(&real.history, Some(simulated.broken)).0);
            if let Some(path) = &args.record {
                write_history(path, &real.history)?;
            }
        }
        for failure in &real.failures {
            let _ = writeln!(text, "run {}: a request failed: {failure}", index + 1);
        }
        if compared == simulated.clone().compared_on(&plan.service) {
            matched += 1;
        } else {
            let _ = writeln!(text, "run {}, for real: {class}", index + 1);
        }
    }
    drop(started);
    let _ = writeln!(
        text,
        "\nsimulated: {simulated}\n{matched} of {} real run(s) matched the simulation",
        args.runs
    );
    if matched == args.runs {
        Ok(text)
    } else {
        Err(CliError::Broken(text))
    }
}

fn name(service: RealService) -> &'static str {
    match service {
        RealService::Postgres => "postgres",
        RealService::Redis => "redis",
        RealService::RedisFailover => "redis-failover",
        RealService::Redlock => "redlock",
        RealService::Etcd => "etcd",
    }
}

fn real_error(reason: impl ToString) -> CliError {
    CliError::Real(reason.to_string())
}

fn write_history(
    path: &str,
    history: &lockstep_sim::story::recorded::RecordedHistory,
) -> Result<(), CliError> {
    let json = serde_json::to_string_pretty(&history.to_file()).map_err(|e| CliError::Write {
        path: path.to_owned(),
        reason: e.to_string(),
    })?;
    std::fs::write(path, json + "\n").map_err(|e| CliError::Write {
        path: path.to_owned(),
        reason: e.to_string(),
    })
}
