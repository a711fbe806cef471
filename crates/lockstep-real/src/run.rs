//! A scenario's clients against real servers: each on connections of its own and a thread of
//! its own, on one clock started when all are connected, doing what its [`ClientPlan`] says
//! when it says it. The resource is always PostgreSQL's register; the lock is the plan's
//! service.

use crate::lock::{Grant, LockService};
use crate::observed::{Observation, Observed, Seen};
use crate::plan::{ClientPlan, Plan, RealAccess, ServicePlan};
use crate::postgres::{self, PostgresServer, Register};
use crate::redis::{CacheLock, RedisServer};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

/// The servers a run may use.
pub struct Servers<'a> {
    pub postgres: &'a PostgresServer,
    /// Needed by a plan whose lock service is a cache.
    pub redis: Option<&'a RedisServer>,
}

/// Sets up the tables (and clears Redis's key), runs the plan's clients, and returns what they saw.
/// A request that fails is what a client saw (`Seen::Failed`); the error returned is the
/// setup's or the final read's.
pub fn run(servers: &Servers, plan: &Plan) -> Result<Observed, String> {
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
        parts.push((client, lock_for(servers, plan)?, register));
    }
    let seen = Mutex::new(Vec::new());
    let start = Instant::now();
    thread::scope(|scope| {
        for (client, lock, register) in parts {
            let player = Player {
                client,
                start,
                seen: &seen,
            };
            scope.spawn(move || player.play(lock, register));
        }
    });
    let mut observations = seen.into_inner().unwrap_or_else(|e| e.into_inner());
    observations.sort_by_key(|o: &Observation| o.at_ms);
    let final_value = admin
        .query_one("SELECT value FROM register", &[])
        .map_err(|e| e.to_string())?
        .get(0);
    Ok(Observed {
        observations,
        final_value,
    })
}

/// A lock left by the run before is gone: the SQL row is made anew by the set-up; the Redis
/// key is deleted here.
fn clear_lock(servers: &Servers, plan: &Plan) -> Result<(), String> {
    if let (ServicePlan::Cache { key }, Some(redis)) = (&plan.service, servers.redis) {
        redis::cmd("DEL")
            .arg(key)
            .query::<i64>(&mut redis.connect()?)
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// A client's own connection to the plan's lock service.
fn lock_for(servers: &Servers, plan: &Plan) -> Result<Box<dyn LockService + Send>, String> {
    match &plan.service {
        ServicePlan::SqlRow { lock_name, .. } => Ok(Box::new(postgres::sql_row_lock(
            &servers.postgres.connection(),
            lock_name,
        )?)),
        ServicePlan::Cache { key } => {
            let redis = servers
                .redis
                .ok_or("this plan's lock service is Redis, and no Redis was started")?;
            Ok(Box::new(CacheLock {
                connection: redis.connect()?,
                key: key.clone(),
            }))
        }
    }
}

/// One client playing its part.
struct Player<'a> {
    client: &'a ClientPlan,
    start: Instant,
    seen: &'a Mutex<Vec<Observation>>,
}

impl Player<'_> {
    fn play(&self, mut lock: Box<dyn LockService + Send>, mut register: Register) {
        if let Err(error) = self.steps(lock.as_mut(), &mut register) {
            self.saw(Seen::Failed(error));
        }
    }

    /// Acquire (and try again as the plan says), read, work, write, release.
    fn steps(&self, lock: &mut dyn LockService, register: &mut Register) -> Result<(), String> {
        self.wait_until(self.client.start_ms);
        let Some(grant) = self.acquire(lock)? else {
            return Ok(());
        };
        let value = match self.client.access {
            RealAccess::ReadModifyWrite => {
                let read = register.read()?;
                self.saw(Seen::Read(read));
                read + 1
            }
            RealAccess::BlindWrite(value) => value,
        };
        self.wait_until(self.client.work_until(self.now_ms()));
        let accepted = register.write(value, grant.token)?;
        let token = grant.token;
        self.saw(if accepted {
            Seen::WriteAccepted { token, value }
        } else {
            Seen::WriteRejected { token }
        });
        let released = lock.release(&grant, self.client.release)?;
        self.saw(Seen::Released(released));
        Ok(())
    }

    fn acquire(&self, lock: &mut dyn LockService) -> Result<Option<Grant>, String> {
        let (delay_ms, more) = self.client.retry.unwrap_or((0, 0));
        for attempt in 0..=more {
            if attempt > 0 {
                self.wait_until(self.now_ms() + delay_ms);
            }
            if let Some(grant) = lock.acquire(&self.client.name, attempt, self.client.ttl_ms)? {
                self.saw(Seen::Granted(grant.token));
                return Ok(Some(grant));
            }
            self.saw(Seen::HeldElsewhere);
        }
        Ok(None)
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn wait_until(&self, at_ms: u64) {
        let now = self.now_ms();
        if at_ms > now {
            thread::sleep(Duration::from_millis(at_ms - now));
        }
    }

    fn saw(&self, seen: Seen) {
        let observation = Observation {
            at_ms: self.now_ms(),
            client: self.client.name.clone(),
            seen,
        };
        self.seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(observation);
    }
}
