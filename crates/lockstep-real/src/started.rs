//! The servers one plan needs, started for it and stopped when dropped: PostgreSQL always (the
//! register, and the SQL row), Redis when the lock service is a cache.

use crate::plan::{Plan, ServicePlan};
use crate::postgres::PostgresServer;
use crate::redis::RedisServer;
use crate::server::ServerError;
use crate::servers::Servers;

pub struct Started {
    pub postgres: PostgresServer,
    pub redis: Option<RedisServer>,
}

impl Started {
    /// Starts what `plan` needs; `say` hears what is being started, and on which port.
    pub fn for_plan(plan: &Plan, say: impl Fn(&str)) -> Result<Started, ServerError> {
        say("starting PostgreSQL on loopback");
        let postgres = PostgresServer::start()?;
        say(&format!("{} on port {}", postgres.version, postgres.port()));
        let redis = match plan.service {
            ServicePlan::Cache { .. } => {
                say("starting Redis on loopback");
                let redis = RedisServer::start()?;
                say(&format!("{} on port {}", redis.version, redis.port()));
                Some(redis)
            }
            // A primary and its replica, or Redlock's nodes, are started by each run, which
            // crashes the primary or jumps a node's clock (`per_run.rs`).
            ServicePlan::SqlRow { .. }
            | ServicePlan::ReplicatedCache { .. }
            | ServicePlan::Redlock { .. }
            | ServicePlan::Etcd { .. } => None,
        };
        Ok(Started { postgres, redis })
    }

    pub fn servers(&self) -> Servers<'_> {
        Servers {
            postgres: &self.postgres,
            redis: self.redis.as_ref(),
        }
    }
}
