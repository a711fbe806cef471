//! A scenario's clients against the server: each on its own connection and thread, on one
//! clock started when all are connected, doing what its [`ClientPlan`] says when it says it.

use super::article;
use super::server::PostgresServer;
use crate::observed::{Observation, Observed, Seen};
use crate::plan::{ClientPlan, Plan, RealFencing};
use postgres::{Client, NoTls};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

/// Sets up the tables as the plan starts them, runs the plan's clients, and returns what they
/// saw. A statement that fails is what a client saw (`Seen::Failed`), not an error of the run;
/// the error returned is the setup's or the final read's.
pub fn run(server: &PostgresServer, plan: &Plan) -> Result<Observed, postgres::Error> {
    let mut admin = Client::connect(&server.connection(), NoTls)?;
    set_up(&mut admin, plan)?;
    let connections = plan
        .clients
        .iter()
        .map(|_| Client::connect(&server.connection(), NoTls))
        .collect::<Result<Vec<_>, _>>()?;
    let seen = Mutex::new(Vec::new());
    let start = Instant::now();
    thread::scope(|scope| {
        for (client, connection) in plan.clients.iter().zip(connections) {
            let player = Player {
                plan,
                client,
                start,
                seen: &seen,
            };
            scope.spawn(move || player.play(connection));
        }
    });
    let mut observations = seen.into_inner().unwrap_or_else(|e| e.into_inner());
    observations.sort_by_key(|o: &Observation| o.at_ms);
    let final_value = admin.query_one(article::READ, &[])?.get(0);
    Ok(Observed {
        observations,
        final_value,
    })
}

fn set_up(admin: &mut Client, plan: &Plan) -> Result<(), postgres::Error> {
    admin
        .batch_execute("DROP TABLE IF EXISTS distributed_locks; DROP TABLE IF EXISTS register;")?;
    admin.batch_execute(article::LOCK_TABLE)?;
    admin.batch_execute(article::REGISTER_TABLE)?;
    let last_token = i64::try_from(plan.last_token).unwrap_or(i64::MAX);
    admin.execute(article::SEED_LOCK, &[&plan.lock_name, &last_token])?;
    admin.execute(article::SEED_REGISTER, &[&plan.initial_value])?;
    Ok(())
}

/// One client playing its part.
struct Player<'a> {
    plan: &'a Plan,
    client: &'a ClientPlan,
    start: Instant,
    seen: &'a Mutex<Vec<Observation>>,
}

impl Player<'_> {
    fn play(&self, mut db: Client) {
        if let Err(error) = self.steps(&mut db) {
            self.saw(Seen::Failed(error.to_string()));
        }
    }

    /// Acquire, read, work, write: the read-modify-write client's one job.
    fn steps(&self, db: &mut Client) -> Result<(), postgres::Error> {
        self.wait_until(self.client.start_ms);
        #[allow(clippy::cast_precision_loss)]
        let ttl_ms = self.client.ttl_ms as f64;
        let granted = db.query_opt(
            article::ACQUIRE,
            &[&self.client.name, &ttl_ms, &self.plan.lock_name],
        )?;
        let Some(row) = granted else {
            self.saw(Seen::HeldElsewhere);
            return Ok(());
        };
        let token: i64 = row.get(0);
        self.saw(Seen::Granted(u64::try_from(token).unwrap_or_default()));
        let value: i64 = db.query_one(article::READ, &[])?.get(0);
        self.saw(Seen::Read(value));
        self.wait_until(self.client.work_until(self.now_ms()));
        let write = match self.plan.fencing {
            RealFencing::On => article::WRITE_FENCED,
            RealFencing::Off => article::WRITE_UNFENCED,
        };
        let written = db.execute(write, &[&(value + 1), &token])?;
        let token = u64::try_from(token).unwrap_or_default();
        self.saw(if written == 1 {
            Seen::WriteAccepted {
                token,
                value: value + 1,
            }
        } else {
            Seen::WriteRejected { token }
        });
        Ok(())
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
