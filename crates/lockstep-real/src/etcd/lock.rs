//! One client's session on etcd, as etcd's own `concurrency` package makes it: grant a lease,
//! keep it alive once (as opening the package's keepalive stream does), then call the lock
//! API's `Lock` with the lease, which puts the
//! client's waiter key and answers once every lower key is gone. While it waits, the lease is
//! kept alive every TTL/3, each keepalive recorded as a renewal. The token is the revision
//! `Lock`'s answer carries: the client's key's create revision when the lock was free, the
//! store's revision when the client's turn came after a wait; either is higher than every
//! earlier holder's, as a fencing token must be, and comes without another request (which a
//! client cut off one way could not make). Release is `Unlock`, which deletes the key.
//!
//! Each request is one POST to the member's JSON gateway (`gateway.rs`) through the client's
//! link. While `Lock` waits (on a thread of its own), each keepalive goes out on a thread of its
//! own too, so that neither holds the other up: the answer to `Lock` ends the wait at once, and
//! a keepalive still unanswered then is dropped, not recorded.
//!
//! A request that outlives the client's timeout is dropped and recorded unanswered; a
//! keepalive without a timeout waits for its answer until the next one is due. What this
//! must not do: keep the lease alive behind the client's back (its keepalives are the
//! client's, sent only when the player or the wait says).

use super::EtcdCluster;
use super::gateway::{Gateway, GatewayError, decoded, encoded, integer};
use crate::link::{CutSwitch, Link, LinkError};
use crate::lock::{Grant, RequestError, acquire_request, renew_request};
use crate::record::Recorder;
use serde_json::{Value, json};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// A client's gateway on the first member, through its link, a link to every other member
/// (which a partition cuts too, though this client sends nothing there), and its lease once
/// granted.
pub struct EtcdLock {
    links: Vec<(String, Link)>,
    gateway: Gateway,
    lock_name: String,
    timeout: Option<Duration>,
    session: Option<Session>,
}

/// A granted lease (its ID as the gateway writes it) and its length.
struct Session {
    lease: String,
    ttl: Duration,
}

/// What the wait in the queue hears: `Lock`'s answer, or a keepalive's sent at `at_ms`.
enum Waited {
    Locked(Result<Value, GatewayError>),
    KeptAlive {
        at_ms: u64,
        answer: Result<bool, GatewayError>,
    },
}

/// What the lock API answers a waiter whose lease ran out while it waited (etcd PR #11408): the
/// `concurrency` package's `ErrSessionExpired`, "mutex: session is expired", which etcd 3.5's
/// server sends as the gRPC error's message (and its gateway in the error's JSON).
const SESSION_EXPIRED: &str = "mutex: session is expired";

impl EtcdLock {
    /// A client of `cluster`'s first member through a link of its own; `timeout_ms` is the
    /// client's own request timeout, if it has one.
    pub fn connect(
        cluster: &EtcdCluster,
        lock_name: &str,
        timeout_ms: Option<u64>,
    ) -> Result<EtcdLock, LinkError> {
        let links = cluster
            .members()
            .map(|(name, port)| Ok((name.to_owned(), Link::start(port)?)))
            .collect::<Result<Vec<_>, LinkError>>()?;
        let port = links.first().map_or(0, |(_, link)| link.port);
        Ok(EtcdLock {
            links,
            gateway: Gateway::at(port),
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
    ) -> Result<Option<Grant>, RequestError> {
        let at_ms = recorder.now_ms();
        let answer = self.take(recorder, who, ttl_ms);
        recorder.record(who, None, at_ms, answer, |a| acquire_request(a, ttl_ms))
    }

    fn take(
        &mut self,
        recorder: &Recorder,
        who: &str,
        ttl_ms: u64,
    ) -> Result<Option<Grant>, RequestError> {
        let ttl_s = ttl_ms.div_ceil(1000);
        let granted = self.gateway.post(
            "/v3/lease/grant",
            &json!({ "TTL": ttl_s.to_string() }),
            self.timeout,
        )?;
        let lease = integer(granted.get("ID"))
            .ok_or_else(|| RequestError::NoLeaseId(granted.to_string()))?
            .to_string();
        // The first keepalive is part of taking the lease, as in etcd's own
        // `concurrency.NewSession` (which opens its keepalive stream with one): not a renewal.
        if !keep_alive_once(&self.gateway, &lease, self.timeout)? {
            return Err(RequestError::LeaseGone);
        }
        let opened = Session {
            lease,
            ttl: Duration::from_millis(ttl_ms),
        };
        let locked = self.wait_in_queue(&opened, recorder, who, ttl_ms);
        let answer = match locked {
            Ok(answer) => answer,
            Err(why) if why.to_string().contains(SESSION_EXPIRED) => return Ok(None),
            Err(why) => return Err(why.into()),
        };
        self.session = Some(opened);
        Ok(Some(Grant {
            token: answer
                .get("header")
                .and_then(|h| integer(h.get("revision")))
                .and_then(|r| u64::try_from(r).ok()),
            value: decoded("key", &answer)?,
        }))
    }

    /// `Lock` with the lease, sent on a thread of its own; while it waits, a keepalive every
    /// TTL/3, each on a thread of its own and recorded as a renewal when it is answered (or
    /// given up). Ends when `Lock` is answered: a keepalive still out then is dropped.
    fn wait_in_queue(
        &self,
        session: &Session,
        recorder: &Recorder,
        who: &str,
        ttl_ms: u64,
    ) -> Result<Value, GatewayError> {
        let (sender, heard) = mpsc::channel();
        let body = json!({ "name": encoded(self.lock_name.as_bytes()), "lease": session.lease });
        send_in_background(
            &sender,
            &self.gateway,
            self.timeout,
            move |gateway, timeout| Waited::Locked(gateway.post("/v3/lock/lock", &body, timeout)),
        );
        let (interval, wait) = keepalive_times(self.timeout, ttl_ms);
        let mut due = Instant::now() + interval;
        loop {
            match heard.recv_timeout(due.saturating_duration_since(Instant::now())) {
                Ok(Waited::Locked(answer)) => return answer,
                Ok(Waited::KeptAlive { at_ms, answer }) => {
                    let answer = answer.map_err(RequestError::from);
                    let _ = recorder.record(who, None, at_ms, answer, |a| renew_request(a, ttl_ms));
                }
                Err(RecvTimeoutError::Timeout) => {
                    let at_ms = recorder.now_ms();
                    let lease = session.lease.clone();
                    send_in_background(&sender, &self.gateway, Some(wait), move |gateway, wait| {
                        let answer = keep_alive_once(gateway, &lease, wait);
                        Waited::KeptAlive { at_ms, answer }
                    });
                    due += interval;
                }
                // The loop holds a sender itself: the channel cannot close while it runs.
                Err(RecvTimeoutError::Disconnected) => unreachable!("the wait holds a sender"),
            }
        }
    }

    /// One keepalive of the lease; whether etcd still had it. The client waits for the answer
    /// until its next keepalive is due at most (its timeout, if shorter): etcd's keepalives go
    /// out every TTL/3 whether the last was answered or not, and the work goes on meanwhile.
    pub fn renew(&mut self, ttl_ms: u64) -> Result<bool, RequestError> {
        let (_, wait) = keepalive_times(self.timeout, ttl_ms);
        let session = self.session.as_ref().ok_or(RequestError::NoLease)?;
        Ok(keep_alive_once(&self.gateway, &session.lease, Some(wait))?)
    }

    /// `Unlock`: deletes the client's key. The lease is left to run out, as the lock API's
    /// `Unlock` leaves it. A client without a timeout of its own gives the request up after
    /// its lease's TTL, when the lease is gone either way: a release lost on a cut link must
    /// not keep the run from ending.
    pub fn release(&mut self, grant: &Grant) -> Result<bool, RequestError> {
        let patience = self.timeout.or(self.session.as_ref().map(|s| s.ttl));
        let body = json!({ "key": encoded(grant.value.as_bytes()) });
        self.gateway
            .post("/v3/lock/unlock", &body, patience)
            .map(|_| true)
            .map_err(RequestError::from)
    }

    /// The switch that cuts this client's link to each member, by the member's name.
    pub fn switches(&self) -> Vec<(String, CutSwitch)> {
        self.links
            .iter()
            .map(|(name, link)| (name.clone(), link.switch()))
            .collect()
    }
}

/// Sends what `request` hears on a thread of its own, through the same gateway, to `sender`'s
/// channel. A thread whose answer comes after the wait ended finds the channel closed: its
/// answer is dropped, as a request the client stopped waiting for.
fn send_in_background(
    sender: &Sender<Waited>,
    gateway: &Gateway,
    timeout: Option<Duration>,
    request: impl FnOnce(&Gateway, Option<Duration>) -> Waited + Send + 'static,
) {
    let sender = sender.clone();
    let gateway = gateway.another();
    thread::spawn(move || {
        let _ = sender.send(request(&gateway, timeout));
    });
}

/// How often a keepalive goes out (every TTL/3, as the player's renewals), and how long the
/// client waits for its answer: until the next is due, or its own timeout if shorter.
fn keepalive_times(timeout: Option<Duration>, ttl_ms: u64) -> (Duration, Duration) {
    let interval = Duration::from_millis((ttl_ms / 3).max(1));
    (interval, timeout.map_or(interval, |t| t.min(interval)))
}

/// One keepalive (the gateway's keepalive stream of one request, one answer): whether the
/// lease was still there, which etcd says by a TTL above 0.
fn keep_alive_once(
    gateway: &Gateway,
    lease: &str,
    wait: Option<Duration>,
) -> Result<bool, GatewayError> {
    let answer = gateway.post("/v3/lease/keepalive", &json!({ "ID": lease }), wait)?;
    let ttl = answer.get("result").and_then(|r| integer(r.get("TTL")));
    Ok(ttl.is_some_and(|ttl| ttl > 0))
}
