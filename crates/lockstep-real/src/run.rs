//! A scenario's clients against real servers: each on connections of its own and a thread of
//! its own, on one clock started when all are connected, doing what its [`ClientPlan`] says
//! when it says it. The resource is always PostgreSQL's register, reached through a slow link
//! by a client whose plan says so; the lock is the plan's service. When the clients are done,
//! the register's log says when each write it applied took effect (`applied.rs`).

use crate::applied::fill_applied;
use crate::faults::Faults;
use crate::link::{Link, Way};
use crate::locks::{clear_lock, lock_for};
use crate::per_run::PerRun;
use crate::plan::{ClientPlan, Plan};
use crate::player::Player;
use crate::postgres::{self, Register};
use crate::record::{Recorder, today, unix_ms};
use crate::run_error::RunError;
use crate::servers::Servers;
use lockstep_sim::story::recorded::RecordedHistory;
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
pub fn run(servers: &Servers, plan: &Plan) -> Result<RealRun, RunError> {
    let connection = servers.postgres.connection();
    let mut admin = ::postgres::Client::connect(&connection, ::postgres::NoTls)?;
    postgres::set_up(&mut admin, plan)?;
    clear_lock(servers, plan)?;
    let per_run = PerRun::start(plan)?;
    let mut parts = Vec::new();
    let mut switches = Vec::new();
    let mut slow_links = Vec::new();
    let mut backends = Vec::new();
    for client in &plan.clients {
        let (register, slow) = register_for(servers, plan, client)?;
        backends.push((client.name.clone(), register.backend));
        slow_links.extend(slow);
        let lock = lock_for(servers, &per_run, plan, &client.name)?;
        for (node, switch) in lock.switches() {
            switches.push((client.name.clone(), node, switch));
        }
        parts.push((client, lock, register));
    }
    let faults = Faults::of(plan, &per_run, switches);
    // The links are slow from the run's start: connecting and preparing went at loopback speed.
    for (link, lag_ms) in &slow_links {
        link.slow(Way::Up, Duration::from_millis(*lag_ms));
    }
    let recorder = Recorder::start();
    let started_unix_ms = unix_ms();
    let made_at_start = faults.at_start(&recorder);
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
    let final_value = admin.query_one("SELECT value FROM register", &[])?.get(0);
    let versions = match per_run.version() {
        Some(version) => vec![version, servers.postgres.version.clone()],
        None => servers.versions(plan),
    };
    let (mut history, mut failures) = recorder.finish(plan, versions, today());
    let log = postgres::logged_writes(&mut admin)?;
    failures.extend(fill_applied(&mut history, &log, &backends, started_unix_ms));
    Ok(RealRun {
        history,
        started_unix_ms,
        final_value,
        failures,
    })
}

/// A client's connection to the register: straight to PostgreSQL, or through a link of its own
/// that the run slows as the plan says (returned with its lag, to be slowed when the run starts).
fn register_for(
    servers: &Servers,
    plan: &Plan,
    client: &ClientPlan,
) -> Result<(Register, Option<(Link, u64)>), RunError> {
    let postgres = servers.postgres;
    match client.resource_lag_ms {
        None => Ok((
            Register::connect(&postgres.connection(), plan.fencing)?,
            None,
        )),
        Some(lag_ms) => {
            let link = Link::start(postgres.port())?;
            let register = Register::connect(&postgres.connection_via(link.port), plan.fencing)?;
            Ok((register, Some((link, lag_ms))))
        }
    }
}
