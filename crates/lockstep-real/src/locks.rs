//! Each client's own connection to the plan's lock service, and clearing a lock left by the
//! run before. On Redis a connection names itself (`CLIENT SETNAME`), as a well-behaved client
//! does, so that `MONITOR` says whose each command is.

use crate::lock::LockService;
use crate::plan::RealTokens;
use crate::plan::{Plan, ServicePlan};
use crate::postgres;
use crate::redis::{CacheLock, FailoverLock, ReplicatedRedis, counter_key};
use crate::servers::{SETUP, Servers};
use std::sync::Arc;

/// A lock left by the run before is gone: the SQL row is made anew by the set-up; the Redis
/// key is deleted here, and its token counter set to where the scenario starts it, on a
/// connection named `lockstep-setup` (not a client's).
pub fn clear_lock(servers: &Servers, plan: &Plan) -> Result<(), String> {
    if let (ServicePlan::Cache { key, tokens }, Some(redis)) = (&plan.service, servers.redis) {
        let mut connection = redis.connect()?;
        redis::cmd("CLIENT")
            .arg("SETNAME")
            .arg(SETUP)
            .query::<String>(&mut connection)
            .map_err(|e| e.to_string())?;
        redis::cmd("DEL")
            .arg(key)
            .arg(counter_key(key))
            .query::<i64>(&mut connection)
            .map_err(|e| e.to_string())?;
        if let RealTokens::Counter { last } = tokens {
            redis::cmd("SET")
                .arg(counter_key(key))
                .arg(last)
                .query::<String>(&mut connection)
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// A client's own connection to the plan's lock service. On Redis it names itself (`CLIENT
/// SETNAME`), as a well-behaved client does, so that `MONITOR` says whose each command is.
pub fn lock_for(
    servers: &Servers,
    pair: Option<&Arc<ReplicatedRedis>>,
    plan: &Plan,
    client: &str,
) -> Result<Box<dyn LockService + Send>, String> {
    match &plan.service {
        ServicePlan::SqlRow { lock_name, .. } => Ok(Box::new(postgres::sql_row_lock(
            &servers.postgres.connection(),
            lock_name,
        )?)),
        ServicePlan::Cache { key, tokens } => {
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
                tokens: *tokens,
            }))
        }
        ServicePlan::ReplicatedCache { key, tokens, .. } => {
            let pair = pair.ok_or("this plan's lock service is a Redis pair, not started")?;
            Ok(Box::new(FailoverLock {
                pair: Arc::clone(pair),
                key: key.clone(),
                tokens: *tokens,
                client: client.to_owned(),
            }))
        }
    }
}
