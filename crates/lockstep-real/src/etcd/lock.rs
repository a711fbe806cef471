//! One client's session on etcd, as etcd's own `concurrency` package makes it: grant a lease,
//! open its keepalive stream, then call the lock API's `Lock` with the lease, which puts the
//! client's waiter key and answers once every lower key is gone. While it waits, the lease is
//! kept alive every TTL/3, each keepalive recorded as a renewal. The token is the revision
//! `Lock`'s answer carries: the client's key's create revision when the lock was free, the
//! store's revision when the client's turn came after a wait; either is higher than every
//! earlier holder's, as a fencing token must be, and comes without another request (which a
//! client cut off one way could not make). Release is `Unlock`, which deletes the key.
//!
//! A request that outlives the client's timeout is dropped and recorded unanswered; a
//! keepalive without a timeout waits for its answer until the next one is due. What this
//! must not do: keep the lease alive behind the client's back (its keepalives are the
//! client's, sent only when the player or the wait says).

use super::EtcdCluster;
use crate::link::{CutSwitch, Link};
use crate::lock::{Grant, acquire_request, renew_request};
use crate::record::Recorder;
use etcd_client::{Client, LeaseKeepAliveStream, LeaseKeeper, LockOptions};
use std::convert::Infallible;
use std::future::Future;
use std::time::Duration;
use tokio::runtime::Runtime;

/// A client's connection to the first member, through its link, a link to every other member
/// (which a partition cuts too, though this client sends nothing there), and its lease once
/// granted.
pub struct EtcdLock {
    runtime: Runtime,
    links: Vec<(String, Link)>,
    client: Client,
    lock_name: String,
    timeout: Option<Duration>,
    session: Option<Session>,
}

/// A granted lease, its length and its keepalive stream.
struct Session {
    ttl: Duration,
    keeper: LeaseKeeper,
    stream: LeaseKeepAliveStream,
}

/// What the lock API answers a waiter whose lease ran out while it waited (etcd PR #11408): the
/// `concurrency` package's `ErrSessionExpired`, "mutex: session is expired", which etcd 3.5's
/// server sends as the gRPC error's message.
const SESSION_EXPIRED: &str = "mutex: session is expired";

impl EtcdLock {
    /// Connects to `cluster`'s first member through a link of its own; `timeout_ms` is the
    /// client's own request timeout, if it has one.
    pub fn connect(
        cluster: &EtcdCluster,
        lock_name: &str,
        timeout_ms: Option<u64>,
    ) -> Result<EtcdLock, String> {
        let links = cluster
            .members()
            .map(|(name, port)| {
                Ok((
                    name.to_owned(),
                    Link::start(port).map_err(|e| e.to_string())?,
                ))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let port = links.first().map_or(0, |(_, link)| link.port);
        let runtime = super::runtime()?;
        let endpoint = format!("http://127.0.0.1:{port}");
        let client = runtime
            .block_on(Client::connect([endpoint], None))
            .map_err(|e| e.to_string())?;
        Ok(EtcdLock {
            runtime,
            links,
            client,
            lock_name: lock_name.to_owned(),
            timeout: timeout_ms.map(Duration::from_millis),
            session: None,
        })
    }

    /// A lease of `ttl_ms` (whole seconds: the plan says so), and the lock with it, recorded as
    /// one acquisition; the keepalives while it waits are recorded as renewals. `None` when
    /// the service says the lease ran out while the client waited.
    pub fn acquire(
        &mut self,
        recorder: &Recorder,
        who: &str,
        ttl_ms: u64,
    ) -> Result<Option<Grant>, String> {
        let at_ms = recorder.now_ms();
        let Self {
            runtime,
            client,
            lock_name,
            timeout,
            session,
            ..
        } = self;
        let answer = runtime.block_on(async {
            let ttl_s = i64::try_from(ttl_ms.div_ceil(1000)).unwrap_or(i64::MAX);
            let lease = within(*timeout, client.lease_grant(ttl_s, None)).await?.id();
            // Opening the stream sends its first keepalive and reads its answer: part of taking
            // the lease, as in etcd's own `concurrency.NewSession`.
            let (keeper, stream) = within(*timeout, client.lease_keep_alive(lease)).await?;
            let mut opened = Session {
                ttl: Duration::from_millis(ttl_ms),
                keeper,
                stream,
            };
            let mut locker = client.clone();
            let lock = within(
                *timeout,
                locker.lock(lock_name.as_str(), Some(LockOptions::new().with_lease(lease))),
            );
            let locked = tokio::select! {
                locked = lock => locked,
                never = keep_alive_while_waiting(&mut opened, *timeout, recorder, who, ttl_ms) => match never {},
            };
            let answer = match locked {
                Ok(answer) => answer,
                Err(why) if why.contains(SESSION_EXPIRED) => return Ok(None),
                Err(why) => return Err(why),
            };
            *session = Some(opened);
            Ok(Some(Grant {
                token: answer
                    .header()
                    .and_then(|h| u64::try_from(h.revision()).ok()),
                value: String::from_utf8_lossy(answer.key()).into_owned(),
            }))
        });
        recorder.record(who, None, at_ms, answer, |a| acquire_request(a, ttl_ms))
    }

    /// One keepalive of the lease; whether etcd still had it. The client waits for the answer
    /// until its next keepalive is due at most (its timeout, if shorter): etcd's keepalives go
    /// out every TTL/3 whether the last was answered or not, and the work goes on meanwhile.
    pub fn renew(&mut self, ttl_ms: u64) -> Result<bool, String> {
        let (_, wait) = keepalive_times(self.timeout, ttl_ms);
        let session = self
            .session
            .as_mut()
            .ok_or("a renewal without a lease granted")?;
        self.runtime.block_on(keep_alive_once(session, wait))
    }

    /// `Unlock`: deletes the client's key. The lease is left to run out, as the lock API's
    /// `Unlock` leaves it. A client without a timeout of its own gives the request up after
    /// its lease's TTL, when the lease is gone either way: a release lost on a cut link must
    /// not keep the run from ending.
    pub fn release(&mut self, grant: &Grant) -> Result<bool, String> {
        let patience = self.timeout.or(self.session.as_ref().map(|s| s.ttl));
        let Self {
            runtime, client, ..
        } = self;
        runtime
            .block_on(within(patience, client.unlock(grant.value.as_bytes())))
            .map(|_| true)
    }

    /// The switch that cuts this client's link to each member, by the member's name.
    pub fn switches(&self) -> Vec<(String, CutSwitch)> {
        self.links
            .iter()
            .map(|(name, link)| (name.clone(), link.switch()))
            .collect()
    }
}

/// Keeps the lease alive every `interval` while the client waits in the queue, recording each
/// keepalive as a renewal; ends only when the wait does (the caller drops it).
async fn keep_alive_while_waiting(
    session: &mut Session,
    timeout: Option<Duration>,
    recorder: &Recorder,
    who: &str,
    ttl_ms: u64,
) -> Infallible {
    let (interval, wait) = keepalive_times(timeout, ttl_ms);
    let mut due = tokio::time::interval_at(tokio::time::Instant::now() + interval, interval);
    loop {
        due.tick().await;
        let at_ms = recorder.now_ms();
        let answer = keep_alive_once(session, wait).await;
        let _ = recorder.record(who, None, at_ms, answer, |a| renew_request(a, ttl_ms));
    }
}

/// How often a keepalive goes out (every TTL/3, as the player's renewals), and how long the
/// client waits for its answer: until the next is due, or its own timeout if shorter.
fn keepalive_times(timeout: Option<Duration>, ttl_ms: u64) -> (Duration, Duration) {
    let interval = Duration::from_millis((ttl_ms / 3).max(1));
    (interval, timeout.map_or(interval, |t| t.min(interval)))
}

async fn keep_alive_once(session: &mut Session, wait: Duration) -> Result<bool, String> {
    session
        .keeper
        .keep_alive()
        .await
        .map_err(|e| e.to_string())?;
    let answer = within(Some(wait), session.stream.message()).await?;
    Ok(answer.is_some_and(|a| a.ttl() > 0))
}

/// `request`'s answer, or why there is none: etcd's error, or no answer within `timeout` (the
/// client's own, or how long it waits for a keepalive's or a release's answer).
async fn within<T>(
    timeout: Option<Duration>,
    request: impl Future<Output = Result<T, etcd_client::Error>>,
) -> Result<T, String> {
    let answer = match timeout {
        Some(limit) => tokio::time::timeout(limit, request)
            .await
            .map_err(|_| format!("no answer within {} ms", limit.as_millis()))?,
        None => request.await,
    };
    answer.map_err(|e| e.to_string())
}
