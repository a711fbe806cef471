//! Each client's own connection to the plan's lock service, and clearing a lock left by the
//! run before. On Redis a connection names itself (`CLIENT SETNAME`), as a well-behaved client
//! does, so that `MONITOR` says whose each command is.

use crate::etcd::EtcdLock;
use crate::link::CutSwitch;
use crate::lock::{Grant, LockService, RequestError, acquire_request, renew_request};
use crate::per_run::PerRun;
use crate::plan::{Plan, RealTokens, ServicePlan};
use crate::postgres;
use crate::record::Recorder;
use crate::redis::{CacheLock, FailoverLock, Redlock, counter_key, named_connection};
use crate::run_error::RunError;
use crate::servers::{SETUP, Servers};
use lockstep_sim::story::recorded::Request;
use lockstep_sim::vocabulary::message::ReleaseMethod;
use std::sync::Arc;

/// A client's way to the lock: one service, which answers each request; Redlock, where the
/// client itself asks every node and counts; or an etcd session, whose keepalives go on while
/// the client waits in the lock's queue.
pub enum ClientLock {
    One(Box<dyn LockService + Send>),
    Redlock(Box<Redlock>),
    Etcd(Box<EtcdLock>),
}

impl ClientLock {
    /// Takes the lock for `ttl_ms`, recording each request sent.
    pub fn acquire(
        &mut self,
        recorder: &Recorder,
        client: &str,
        attempt: u32,
        ttl_ms: u64,
    ) -> Result<Option<Grant>, RequestError> {
        match self {
            ClientLock::One(lock) => one_request(
                lock.as_mut(),
                recorder,
                client,
                |lock| lock.acquire(client, attempt, ttl_ms),
                |answer| acquire_request(answer, ttl_ms),
            ),
            ClientLock::Redlock(redlock) => redlock.acquire(recorder, client, attempt, ttl_ms),
            ClientLock::Etcd(etcd) => etcd.acquire(recorder, client, ttl_ms),
        }
    }

    /// Renews the lease `grant` took for `ttl_ms`, recording the request; whether the service
    /// still held it. Redlock's clients do not renew (the plan refuses them).
    pub fn renew(
        &mut self,
        recorder: &Recorder,
        client: &str,
        grant: &Grant,
        ttl_ms: u64,
    ) -> Result<bool, RequestError> {
        match self {
            ClientLock::One(lock) => one_request(
                lock.as_mut(),
                recorder,
                client,
                |lock| lock.renew(grant, ttl_ms),
                |renewed| renew_request(renewed, ttl_ms),
            ),
            ClientLock::Redlock(_) => Err(RequestError::RedlockRenewal),
            ClientLock::Etcd(etcd) => recorder.request(
                client,
                None,
                || etcd.renew(ttl_ms),
                |renewed| renew_request(renewed, ttl_ms),
            ),
        }
    }

    /// Gives the lock back as `method` says, recording each request sent.
    pub fn release(
        &mut self,
        recorder: &Recorder,
        client: &str,
        grant: &Grant,
        method: ReleaseMethod,
    ) -> Result<bool, RequestError> {
        match self {
            ClientLock::One(lock) => one_request(
                lock.as_mut(),
                recorder,
                client,
                |lock| lock.release(grant, method),
                |released| Request::Release(released.copied()),
            ),
            ClientLock::Redlock(redlock) => Ok(redlock.release(recorder, client, grant, method)),
            ClientLock::Etcd(etcd) => recorder.request(
                client,
                None,
                || etcd.release(grant),
                |released| Request::Release(released.copied()),
            ),
        }
    }

    /// The switch that cuts this client's link to each node, by the node's name, where it
    /// reaches nodes through links (Redlock's, etcd's).
    pub fn switches(&self) -> Vec<(String, CutSwitch)> {
        match self {
            ClientLock::One(_) => Vec::new(),
            ClientLock::Redlock(redlock) => redlock.switches(),
            ClientLock::Etcd(etcd) => etcd.switches(),
        }
    }
}

/// One request to a single service, recorded with the server it went to (where the service
/// has several that take turns).
fn one_request<T>(
    lock: &mut (dyn LockService + Send),
    recorder: &Recorder,
    client: &str,
    send: impl FnOnce(&mut (dyn LockService + Send)) -> Result<T, RequestError>,
    request: impl FnOnce(Option<&T>) -> Request,
) -> Result<T, RequestError> {
    let server = lock.server();
    recorder.request(client, server, || send(lock), request)
}

/// A lock left by the run before is gone: the SQL row is made anew by the set-up; the Redis
/// key is deleted here, and its token counter set to where the scenario starts it, on a
/// connection named `lockstep-setup` (not a client's).
pub fn clear_lock(servers: &Servers, plan: &Plan) -> Result<(), RunError> {
    if let (ServicePlan::Cache { key, tokens }, Some(redis)) = (&plan.service, servers.redis) {
        let mut connection = named_connection(redis.port(), SETUP)?;
        redis::cmd("DEL")
            .arg(key)
            .arg(counter_key(key))
            .query::<i64>(&mut connection)?;
        if let RealTokens::Counter { last } = tokens {
            redis::cmd("SET")
                .arg(counter_key(key))
                .arg(last)
                .query::<String>(&mut connection)?;
        }
    }
    Ok(())
}

/// A client's own connection to the plan's lock service. On Redis it names itself (`CLIENT
/// SETNAME`), as a well-behaved client does, so that `MONITOR` says whose each command is.
pub fn lock_for(
    servers: &Servers,
    per_run: &PerRun,
    plan: &Plan,
    client: &str,
) -> Result<ClientLock, RunError> {
    let one = match &plan.service {
        ServicePlan::SqlRow { lock_name, .. } => Box::new(postgres::sql_row_lock(
            &servers.postgres.connection(),
            lock_name,
        )?) as Box<dyn LockService + Send>,
        ServicePlan::Cache { key, tokens } => {
            let redis = servers.redis.ok_or(RunError::NotStarted(
                "this plan's lock service is Redis, and no Redis was started",
            ))?;
            let connection = named_connection(redis.port(), client)?;
            Box::new(CacheLock {
                connection,
                key: key.clone(),
                tokens: *tokens,
            })
        }
        ServicePlan::ReplicatedCache { key, tokens, .. } => {
            let pair = per_run.pair.as_ref().ok_or(RunError::NotStarted(
                "this plan's lock service is a Redis pair, not started",
            ))?;
            Box::new(FailoverLock {
                pair: Arc::clone(pair),
                key: key.clone(),
                tokens: *tokens,
                client: client.to_owned(),
            })
        }
        ServicePlan::Redlock { key, params } => {
            let nodes = per_run.redlock.as_ref().ok_or(RunError::NotStarted(
                "this plan's lock service is Redlock's nodes, not started",
            ))?;
            return Ok(ClientLock::Redlock(Box::new(Redlock::connect(
                nodes, client, key, *params,
            )?)));
        }
        ServicePlan::Etcd { lock_name, .. } => {
            let cluster = per_run.etcd.as_ref().ok_or(RunError::NotStarted(
                "this plan's lock service is an etcd cluster, not started",
            ))?;
            let timeout_ms = plan
                .clients
                .iter()
                .find(|c| c.name == client)
                .and_then(|c| c.timeout_ms);
            return Ok(ClientLock::Etcd(Box::new(EtcdLock::connect(
                cluster, lock_name, timeout_ms,
            )?)));
        }
    };
    Ok(ClientLock::One(one))
}
