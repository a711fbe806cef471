//! The allowed range of every number in a scenario, checked when the file is read.
//!
//! Each type of the format is wider than what a run can use: a TTL of `u64::MAX` ms or an order
//! of `i64::MIN` units parse, and then overflow the simulation's arithmetic. Rather than saturate
//! everywhere, a scenario is refused at parse time with the field and its allowed range (see
//! `docs/scenario-format.md`). Within these ranges, and within a run's budget (`budget`), no
//! sum or difference the simulation makes can overflow. This module only checks; it changes
//! nothing.

use crate::models::client::{
    Access, LeaseCheck, LocalDeadline, Repeat, RequestTimeout, RetryPolicy,
};
use crate::scenario::error::ScenarioError;
use crate::scenario::expectation::Expectation;
use crate::scenario::types::LockServiceSpec;
use crate::scenario::types::MAX_END_MS;
use crate::scenario::types::ResourceSpec;
use crate::scenario::types::Scenario;
use crate::world::intervention::Action;
use crate::world::time::Millis;

/// The longest duration any field may give: as long as the longest run.
pub const MAX_DURATION_MS: u64 = MAX_END_MS;
/// The largest amount, quantity, value or token, either way: a million million, so that a run's
/// every write or charge added together stays far inside an `i64`.
pub const MAX_AMOUNT: i64 = 1_000_000_000_000;
/// The largest step of a clock, either way (by an offset or a jump): one day.
pub const MAX_CLOCK_STEP_MS: i64 = 86_400_000;
/// The fastest a clock may run: twice the speed of true time. (The slowest, above -1,000,000,
/// is a clock that still moves forwards.)
pub const MAX_DRIFT_PPM: i32 = 1_000_000;
const MIN_DRIFT_PPM: i32 = -999_999;

fn out_of_range(path: &str, value: impl std::fmt::Display, range: &str) -> ScenarioError {
    ScenarioError::Invalid {
        path: path.to_owned(),
        reason: format!("{value} is out of range: it must be from {range}"),
    }
}

fn duration(path: &str, value: Millis, least: u64) -> Result<(), ScenarioError> {
    if (least..=MAX_DURATION_MS).contains(&value.0) {
        Ok(())
    } else {
        Err(out_of_range(
            path,
            value.0,
            &format!("{least} to {MAX_DURATION_MS} ms (one hour)"),
        ))
    }
}

fn amount(path: &str, value: i64) -> Result<(), ScenarioError> {
    if (-MAX_AMOUNT..=MAX_AMOUNT).contains(&value) {
        Ok(())
    } else {
        Err(out_of_range(
            path,
            value,
            &format!("-{MAX_AMOUNT} to {MAX_AMOUNT}"),
        ))
    }
}

fn token(path: &str, value: u64) -> Result<(), ScenarioError> {
    if value <= MAX_AMOUNT.unsigned_abs() {
        Ok(())
    } else {
        Err(out_of_range(path, value, &format!("0 to {MAX_AMOUNT}")))
    }
}

fn clock_step(path: &str, value: i64) -> Result<(), ScenarioError> {
    if (-MAX_CLOCK_STEP_MS..=MAX_CLOCK_STEP_MS).contains(&value) {
        Ok(())
    } else {
        Err(out_of_range(
            path,
            value,
            &format!("-{MAX_CLOCK_STEP_MS} to {MAX_CLOCK_STEP_MS} ms (one day either way)"),
        ))
    }
}

fn drift(path: &str, value: i32) -> Result<(), ScenarioError> {
    if (MIN_DRIFT_PPM..=MAX_DRIFT_PPM).contains(&value) {
        Ok(())
    } else {
        Err(out_of_range(
            path,
            value,
            &format!(
                "{MIN_DRIFT_PPM} to {MAX_DRIFT_PPM} ppm (a clock moves forwards, at most twice as \
                 fast as true time)"
            ),
        ))
    }
}

/// Checks every number of `scenario` against its range, naming the first that is outside.
pub fn check(scenario: &Scenario) -> Result<(), ScenarioError> {
    lock_service(&scenario.lock_service)?;
    match &scenario.resource {
        ResourceSpec::Register { initial_value, .. } => {
            amount("resource.initial_value", *initial_value)?
        }
        ResourceSpec::Inventory { quantity, .. } => amount("resource.quantity", *quantity)?,
        ResourceSpec::Payments { .. } => {}
    }
    for (i, client) in scenario.clients.iter().enumerate() {
        let at = |field: &str| format!("clients[{i}].{field}");
        duration(&at("start_ms"), client.start_ms, 0)?;
        duration(&at("ttl_ms"), client.ttl_ms, 1)?;
        duration(&at("work_ms"), client.work_ms, 0)?;
        match client.access {
            Access::BlindWrite { value } => amount(&at("access.value"), value)?,
            Access::Decrement { amount: a } => amount(&at("access.amount"), a)?,
            Access::Charge {
                amount: a,
                timeout_ms,
                ..
            } => {
                amount(&at("access.amount"), a)?;
                duration(&at("access.timeout_ms"), timeout_ms, 0)?;
            }
            Access::ReadModifyWrite {} | Access::OptimisticUpdate { .. } => {}
        }
        match client.retry {
            RetryPolicy::Fixed { delay_ms, .. } => duration(&at("retry.delay_ms"), delay_ms, 0)?,
            RetryPolicy::Random { max_delay_ms, .. } => {
                duration(&at("retry.max_delay_ms"), max_delay_ms, 0)?
            }
            RetryPolicy::GiveUp {} => {}
        }
        if let LeaseCheck::BeforeWrite {
            margin_ms, gap_ms, ..
        } = client.lease_check
        {
            duration(&at("lease_check.margin_ms"), margin_ms, 0)?;
            duration(&at("lease_check.gap_ms"), gap_ms, 0)?;
        }
        if let Repeat::Every { interval_ms } = client.repeat {
            duration(&at("repeat.interval_ms"), interval_ms, 0)?;
        }
        if let RequestTimeout::After { ms } = client.timeout {
            duration(&at("timeout.ms"), ms, 0)?;
        }
        if let LocalDeadline::After { ms } = client.local_deadline {
            duration(&at("local_deadline.ms"), ms, 1)?;
        }
    }
    for (i, clock) in scenario.clocks.iter().enumerate() {
        clock_step(&format!("clocks[{i}].offset_ms"), clock.offset_ms)?;
        drift(&format!("clocks[{i}].drift_ppm"), clock.drift_ppm)?;
    }
    for (i, intervention) in scenario.interventions.iter().enumerate() {
        let at = |field: &str| format!("interventions[{i}].do.{field}");
        match &intervention.action {
            Action::Pause {
                for_ms: Some(for_ms),
                ..
            } => duration(&at("for_ms"), *for_ms, 0)?,
            Action::ClockJump { by_ms, .. } => clock_step(&at("by_ms"), *by_ms)?,
            Action::ClockDrift { drift_ppm, .. } => drift(&at("drift_ppm"), *drift_ppm)?,
            _ => {}
        }
    }
    for (i, expectation) in scenario.expectations.iter().enumerate() {
        if let Expectation::FinalValue { value } = expectation {
            amount(&format!("expectations[{i}].value"), *value)?;
        }
    }
    Ok(())
}

fn lock_service(spec: &LockServiceSpec) -> Result<(), ScenarioError> {
    let at = |field: &str| format!("lock_service.{field}");
    match spec {
        LockServiceSpec::SqlRow { last_token, .. } | LockServiceSpec::Cache { last_token, .. } => {
            token(&at("last_token"), *last_token)
        }
        LockServiceSpec::ReplicatedCache {
            last_token,
            replication_lag_ms,
            failover_after_ms,
            ..
        } => {
            token(&at("last_token"), *last_token)?;
            duration(&at("replication_lag_ms"), *replication_lag_ms, 0)?;
            duration(&at("failover_after_ms"), *failover_after_ms, 0)
        }
        LockServiceSpec::DataGrid { .. } => Ok(()),
        LockServiceSpec::Consensus {
            heartbeat_ms,
            election_timeout_ms,
            lock_delay_ms,
            ..
        } => {
            duration(&at("heartbeat_ms"), *heartbeat_ms, 1)?;
            duration(&at("election_timeout_ms"), *election_timeout_ms, 1)?;
            duration(&at("lock_delay_ms"), *lock_delay_ms, 0)
        }
        LockServiceSpec::Redlock {
            restart_delay_ms,
            node_timeout_ms,
            ..
        } => {
            duration(&at("restart_delay_ms"), *restart_delay_ms, 0)?;
            duration(&at("node_timeout_ms"), *node_timeout_ms, 0)
        }
    }
}
