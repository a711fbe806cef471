//! A scenario's clients against real servers: each on connections of its own and a thread of
//! its own, on one clock started when all are connected, doing what its [`ClientPlan`] says
//! when it says it. The resource is always PostgreSQL's register; the lock is the plan's
//! service.

use crate::lock::{Grant, LockService};
use crate::plan::{ClientPlan, Plan, RealAccess, ServicePlan};
use crate::postgres::{self, PostgresServer, Register};
use crate::record::{Recorder, today, unix_ms};
use crate::redis::{CacheLock, RedisServer};
use lockstep_sim::story::recorded::{Acquired, RecordedHistory, Request, Written};
use std::thread;
use std::time::Duration;

/// The servers a run may use.
pub struct Servers<'a> {
    pub postgres: &'a PostgresServer,
    /// Needed by a plan whose lock service is a cache.
    pub redis: Option<&'a RedisServer>,
}

/// The name of the connection that sets a run up, as `CLIENT SETNAME` gives it.
pub const SETUP: &str = "lockstep-setup";

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
    let mut parts = Vec::new();
    for client in &plan.clients {
        let register = Register {
            db: ::postgres::Client::connect(&connection, ::postgres::NoTls)
                .map_err(|e| e.to_string())?,
            fencing: plan.fencing,
        };
        parts.push((client, lock_for(servers, plan, &client.name)?, register));
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
    });
    let final_value = admin
        .query_one("SELECT value FROM register", &[])
        .map_err(|e| e.to_string())?
        .get(0);
    let (history, failures) = recorder.finish(plan, servers.versions(plan), today());
    Ok(RealRun {
        history,
        started_unix_ms,
        final_value,
        failures,
    })
}

impl Servers<'_> {
    /// The servers `plan` uses, by name and version: the lock service's, then the resource's.
    pub fn versions(&self, plan: &Plan) -> Vec<String> {
        let postgres = self.postgres.version.clone();
        match (&plan.service, self.redis) {
            (ServicePlan::Cache { .. }, Some(redis)) => vec![redis.version.clone(), postgres],
            _ => vec![postgres],
        }
    }
}

/// A lock left by the run before is gone: the SQL row is made anew by the set-up; the Redis
/// key is deleted here, on a connection named `lockstep-setup` (not a client's).
fn clear_lock(servers: &Servers, plan: &Plan) -> Result<(), String> {
    if let (ServicePlan::Cache { key }, Some(redis)) = (&plan.service, servers.redis) {
        let mut connection = redis.connect()?;
        redis::cmd("CLIENT")
            .arg("SETNAME")
            .arg(SETUP)
            .query::<String>(&mut connection)
            .map_err(|e| e.to_string())?;
        redis::cmd("DEL")
            .arg(key)
            .query::<i64>(&mut connection)
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// A client's own connection to the plan's lock service. On Redis it names itself (`CLIENT
/// SETNAME`), as a well-behaved client does, so that `MONITOR` says whose each command is.
fn lock_for(
    servers: &Servers,
    plan: &Plan,
    client: &str,
) -> Result<Box<dyn LockService + Send>, String> {
    match &plan.service {
        ServicePlan::SqlRow { lock_name, .. } => Ok(Box::new(postgres::sql_row_lock(
            &servers.postgres.connection(),
            lock_name,
        )?)),
        ServicePlan::Cache { key } => {
            let redis = servers
                .redis
                .ok_or("this plan's lock service is Redis, and no Redis was started")?;
            let mut connection = redis.connect()?;
            redis::cmd("CLIENT")
                .arg("SETNAME")
                .arg(client)
                .query::<String>(&mut connection)
                .map_err(|e| e.to_string())?;
            Ok(Box::new(CacheLock {
                connection,
                key: key.clone(),
            }))
        }
    }
}

/// One client playing its part.
struct Player<'a> {
    client: &'a ClientPlan,
    recorder: &'a Recorder,
}

impl Player<'_> {
    fn play(&self, mut lock: Box<dyn LockService + Send>, mut register: Register) {
        // A failed request is recorded unanswered, with its failure: the client stops there.
        let _ = self.steps(lock.as_mut(), &mut register);
    }

    /// Acquire (and try again as the plan says), read, work, write, release.
    fn steps(&self, lock: &mut dyn LockService, register: &mut Register) -> Result<(), String> {
        let name = self.client.name.as_str();
        self.wait_until(self.client.start_ms);
        let Some(grant) = self.acquire(lock)? else {
            return Ok(());
        };
        let value = match self.client.access {
            RealAccess::ReadModifyWrite => {
                self.recorder
                    .request(name, || register.read(), |v| Request::Read(v.copied()))?
                    + 1
            }
            RealAccess::BlindWrite(value) => value,
        };
        let from_ms = self.recorder.now_ms();
        for (at_ms, for_ms) in self.client.pauses_in(from_ms) {
            self.recorder.paused(name, at_ms, for_ms);
        }
        self.wait_until(self.client.work_until(from_ms));
        let token = grant.token;
        self.recorder.request(
            name,
            || register.write(value, token),
            |accepted| Request::Write {
                token,
                value,
                outcome: accepted.map(|&yes| {
                    if yes {
                        Written::Accepted
                    } else {
                        Written::Refused
                    }
                }),
            },
        )?;
        self.recorder.request(
            name,
            || lock.release(&grant, self.client.release),
            |released| Request::Release(released.copied()),
        )?;
        Ok(())
    }

    fn acquire(&self, lock: &mut dyn LockService) -> Result<Option<Grant>, String> {
        let (delay_ms, more) = self.client.retry.unwrap_or((0, 0));
        let ttl_ms = self.client.ttl_ms;
        for attempt in 0..=more {
            if attempt > 0 {
                self.wait_until(self.recorder.now_ms() + delay_ms);
            }
            let grant = self.recorder.request(
                &self.client.name,
                || lock.acquire(&self.client.name, attempt, ttl_ms),
                |answer| {
                    Request::Acquire(answer.map(|grant| match grant {
                        Some(grant) => Acquired::Granted {
                            token: grant.token,
                            ttl_ms: Some(ttl_ms),
                        },
                        None => Acquired::Refused,
                    }))
                },
            )?;
            if grant.is_some() {
                return Ok(grant);
            }
        }
        Ok(None)
    }

    fn wait_until(&self, at_ms: u64) {
        let now = self.recorder.now_ms();
        if at_ms > now {
            thread::sleep(Duration::from_millis(at_ms - now));
        }
    }
}
