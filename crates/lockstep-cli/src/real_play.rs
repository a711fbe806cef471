//! `lockstep-cli real`'s play, in builds with the `real` feature: the scenario's plan, its
//! servers started (`lockstep-real`), the runs, their verdicts beside the simulation's, and the
//! first run's history written where `--record` says. It must not start anything before the
//! plan is checked against `--service`.

use crate::check_trace::verdicts;
use crate::error::CliError;
use crate::real_command::{RealArgs, RealService};
use lockstep_real::outcome::OutcomeClass;
use lockstep_real::plan::Plan;
use lockstep_real::run::run;
use lockstep_real::started::Started;
use std::fmt::Write as _;

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

/// The service's name as the plan says it (`--service`'s value).
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
