//! A scenario's clients against real servers: each on connections of its own and a thread of
//! its own, on one clock started when all are connected, doing what its [`ClientPlan`] says
//! when it says it. The resource is always PostgreSQL's register; the lock is the plan's
//! service.

use crate::faults::Faults;
use crate::locks::{clear_lock, lock_for};
use crate::per_run::PerRun;
use crate::plan::Plan;
use crate::player::Player;
use crate::postgres::{self, Register};
use crate::record::{Recorder, today, unix_ms};
use crate::servers::Servers;
use lockstep_sim::story::recorded::RecordedHistory;
use std::thread;

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
    let per_run = PerRun::start(plan)?;
    let mut parts = Vec::new();
    let mut switches = Vec::new();
    for client in &plan.clients {
        let register = Register {
            db: ::postgres::Client::connect(&connection, ::postgres::NoTls)
                .map_err(|e| e.to_string())?,
            fencing: plan.fencing,
        };
        let lock = lock_for(servers, &per_run, plan, &client.name)?;
        for (node, switch) in lock.switches() {
            switches.push((client.name.clone(), node, switch));
        }
        parts.push((client, lock, register));
    }
    let faults = Faults::of(plan, &per_run, switches);
    let made_at_start = faults.at_start();
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
        scope.spawn(|| faults.play(made_at_start, &recorder));
    });
    let final_value = admin
        .query_one("SELECT value FROM register", &[])
        .map_err(|e| e.to_string())?
        .get(0);
    let versions = match per_run.version() {
        Some(version) => vec![version, servers.postgres.version.clone()],
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
