//! The servers a run may use, shared by the runs of one session, and the name of the
//! connection that sets a run up. The ones a run starts for itself (a Redis primary and its
//! replica, which the run kills) are not here.

use crate::plan::{Plan, ServicePlan};
use crate::postgres::PostgresServer;
use crate::redis::RedisServer;

/// The servers a run may use.
pub struct Servers<'a> {
    pub postgres: &'a PostgresServer,
    /// Needed by a plan whose lock service is a cache.
    pub redis: Option<&'a RedisServer>,
}

/// The name of the connection that sets a run up, as `CLIENT SETNAME` gives it.
pub const SETUP: &str = "lockstep-setup";

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
