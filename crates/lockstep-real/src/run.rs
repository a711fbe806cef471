//! A scenario's clients against real servers: each on connections of its own and a thread of
//! its own, on one clock started when all are connected, doing what its [`ClientPlan`] says
//! when it says it. The resource is always PostgreSQL's register; the lock is the plan's
//! service.

use crate::faults;
use crate::locks::{clear_lock, lock_for};
use crate::plan::{Plan, RealTokens, ServicePlan};
use crate::player::Player;
use crate::postgres::{self, Register};
use crate::record::{Recorder, today, unix_ms};
use crate::redis::{ReplicatedRedis, counter_key};
use crate::servers::Servers;
use lockstep_sim::story::recorded::RecordedHistory;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// A real run: what its clients saw, the register's value at the end, and the requests that
/// failed (a server that did not answer), in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RealRun {
    pub history: RecordedHistory,
    /// When the run's clock started, in Unix milliseconds: its times are from here.
    pub started_unix_ms: u64,
    pub final_value: i64,
    pub failures: Vec<String>,
}

/// Sets up the tables (and clears Redis's key), runs the plan's clients, and returns what they
/// saw. A request that fails is recorded unanswered and listed in `failures`; the error
/// returned is the setup's or the final read's.
pub fn run(servers: &Servers, plan: &Plan) -> Result<RealRun, String> {
    let connection = servers.postgres.connection();
    let mut admin =
        ::postgres::Client::connect(&connection, ::postgres::NoTls).map_err(|e| e.to_string())?;
    postgres::set_up(&mut admin, plan).map_err(|e| e.to_string())?;
    clear_lock(servers, plan)?;
    // A primary and its replica are started for each run: the run kills the primary.
    let pair = match &plan.service {
        ServicePlan::ReplicatedCache {
            key,
            lag_ms,
            tokens,
            ..
        } => {
            let [primary, replica] =
                [0, 1].map(|i| plan.service_names.get(i).cloned().unwrap_or_default());
            let counter = match tokens {
                RealTokens::Counter { last } => Some((counter_key(key), *last)),
                RealTokens::None => None,
            };
            Some(Arc::new(
                ReplicatedRedis::start(Duration::from_millis(*lag_ms), &primary, &replica, counter)
                    .map_err(|e| e.to_string())?,
            ))
        }
        _ => None,
    };
    let mut parts = Vec::new();
    for client in &plan.clients {
        let register = Register {
            db: ::postgres::Client::connect(&connection, ::postgres::NoTls)
                .map_err(|e| e.to_string())?,
            fencing: plan.fencing,
        };
        parts.push((
            client,
            lock_for(servers, pair.as_ref(), plan, &client.name)?,
            register,
        ));
    }
    let recorder = Recorder::start();
    let started_unix_ms = unix_ms();
    thread::scope(|scope| {
        for (client, lock, register) in parts {
            let player = Player {
                client,
                recorder: &recorder,
            };
            scope.spawn(move || player.play(lock, register));
        }
        if let Some(pair) = &pair {
            scope.spawn(|| faults::play(plan, pair, &recorder));
        }
    });
    let final_value = admin
        .query_one("SELECT value FROM register", &[])
        .map_err(|e| e.to_string())?
        .get(0);
    let versions = match &pair {
        Some(pair) => vec![pair.version.clone(), servers.postgres.version.clone()],
        None => servers.versions(plan),
    };
    let (history, failures) = recorder.finish(plan, versions, today());
    Ok(RealRun {
        history,
        started_unix_ms,
        final_value,
        failures,
    })
}
