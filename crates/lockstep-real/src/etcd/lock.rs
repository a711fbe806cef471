//! One client's session on etcd, as etcd's own `concurrency` package makes it: grant a lease,
//! keep it alive once (as opening the package's keepalive stream does), then call the lock
//! API's `Lock` with the lease, which puts the client's waiter key and answers once every lower
//! key is gone. While it waits, the lease is kept alive every TTL/3, each keepalive recorded as
//! a renewal. Release is `Unlock`, which deletes the key.
//!
//! The token is the lock key's create revision, the revision of the `Lock`'s own put: the
//! number the model hands out, and the one etcd's Go `concurrency.Mutex` keeps as `myRev` from
//! its put. It is not the revision in `Lock`'s answer header: that is the store's revision when
//! the answer was made, which equals the key's create revision only when the lock was free;
//! after a wait it is the store's revision at the end of the wait (the mutex's `waitDeletes`
//! header on 3.4, a read of the key after it on 3.5), counting every write since, the
//! deletions that let this client in among them, so it can be higher. `Lock`'s answer does not
//! carry the create revision, so the client reads it from its own key: while it waits (the key
//! is `<name>/<lease in hex>`, put by `Lock` before it waits), or right after the answer when
//! the answer came first. It must read it while it waits: in S18 the waiter's key is gone with
//! its lease before etcd 3.4 answers, and what the waiter sends is lost by then. These reads
//! are not recorded: a range writes nothing (no revision, no lease), and they are part of the
//! acquisition, as the Go mutex's own reads are part of its `Lock`.
//!
//! Each request is one POST to the member's JSON gateway (`gateway.rs`) through the client's
//! link. While `Lock` waits (on a thread of its own), each keepalive and the read of the key go
//! out on threads of their own too, so that none holds the others up: the answer to `Lock` ends
//! the wait at once, and a keepalive whose answer has not been taken by then is dropped, not
//! recorded (one answered but queued behind the `Lock` answer too). If the key cannot be read
//! (its read fails, or comes after the answer and fails then), the grant is recorded without a
//! token rather than with the header's number.
//!
//! Keepalives go out every TTL/3 from the last one's due time, answered or not, as the
//! simulation's client renews (`renewing.rs` does the same while the client holds the lock).
//! etcd's Go client does otherwise (`client/v3/lease.go`): it sends the next keepalive TTL/3
//! after an answer, and while none comes it sends again every 500 ms (`retryConnWait`). The
//! runner plays the scenario's client, not Go's, so that a difference between the two runs is
//! the server's; it speaks to the gateway, one request per keepalive, not Go's keepalive stream.
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
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
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

/// What the wait in the queue hears: `Lock`'s answer, a keepalive's sent at `at_ms`, or the
/// create revision of the client's own key, read while it waits.
enum Waited {
    Locked(Result<Value, GatewayError>),
    KeptAlive {
        at_ms: u64,
        answer: Result<bool, GatewayError>,
    },
    Created(u64),
}

/// `Lock`'s answer, and the create revision of the client's key if it was read while it waited.
struct Answered {
    answer: Result<Value, GatewayError>,
    created: Option<u64>,
}

/// How long the read of the client's own key waits before it looks again, when `Lock` has not
/// put the key yet: `Lock` puts it within a few milliseconds of its arrival.
const LOOK_AGAIN: Duration = Duration::from_millis(2);

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
        let Answered { answer, created } = self.wait_in_queue(&opened, recorder, who, ttl_ms);
        let answer = match answer {
            Ok(answer) => answer,
            Err(why) if why.to_string().contains(SESSION_EXPIRED) => return Ok(None),
            Err(why) => return Err(why.into()),
        };
        let key = decoded("key", &answer)?;
        // Answered before the key was read (a free lock answers at once): read it now, waiting
        // no longer than the lease lasts. A client that cannot has no token to show, rather
        // than the answer header's revision, which is another number.
        let patience = self.timeout.or(Some(opened.ttl));
        let token = created.or_else(|| create_revision(&self.gateway, &key, patience).ok()?);
        self.session = Some(opened);
        Ok(Some(Grant { token, value: key }))
    }

    /// `Lock` with the lease, sent on a thread of its own; while it waits, a keepalive every
    /// TTL/3, each on a thread of its own and recorded as a renewal when it is answered (or
    /// given up), and the read of the client's own key's create revision. Ends when `Lock` is
    /// answered: a keepalive still out then is dropped.
    fn wait_in_queue(
        &self,
        session: &Session,
        recorder: &Recorder,
        who: &str,
        ttl_ms: u64,
    ) -> Answered {
        let (sender, heard) = mpsc::channel();
        let body = json!({ "name": encoded(self.lock_name.as_bytes()), "lease": session.lease });
        send_in_background(
            &sender,
            &self.gateway,
            self.timeout,
            move |gateway, timeout| Waited::Locked(gateway.post("/v3/lock/lock", &body, timeout)),
        );
        let (interval, wait) = keepalive_times(self.timeout, ttl_ms);
        let _reading = self.read_own_key(&sender, session, wait);
        let mut created = None;
        let mut due = Instant::now() + interval;
        loop {
            match heard.recv_timeout(due.saturating_duration_since(Instant::now())) {
                Ok(Waited::Locked(answer)) => {
                    let created = created.or_else(|| created_heard(&heard));
                    return Answered { answer, created };
                }
                Ok(Waited::Created(revision)) => created = Some(revision),
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

    /// Reads the client's own key (`<name>/<lease in hex>`, as etcd's `concurrency.Mutex` names
    /// it) on a thread of its own until `Lock` has put it, and sends its create revision. It
    /// stops when the returned guard is dropped (the wait is over), or when a read gets no
    /// answer (a cut link: the client then reads after `Lock`'s answer, if it can).
    fn read_own_key(&self, sender: &Sender<Waited>, session: &Session, wait: Duration) -> Stop {
        let stop = Stop::default();
        let Some(key) = own_key(&self.lock_name, &session.lease) else {
            return stop;
        };
        let (sender, gateway, stopped) = (sender.clone(), self.gateway.another(), stop.0.clone());
        thread::spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                match create_revision(&gateway, &key, Some(wait)) {
                    Ok(Some(revision)) => {
                        let _ = sender.send(Waited::Created(revision));
                        return;
                    }
                    Ok(None) => thread::sleep(LOOK_AGAIN),
                    Err(_) => return,
                }
            }
        });
        stop
    }

    /// One keepalive of the lease; whether etcd still had it. The client waits for the answer
    /// until its next keepalive is due at most (its timeout, if shorter): its keepalives go out
    /// every TTL/3 whether the last was answered or not, as the simulation's client renews (not
    /// as etcd's Go client: the module's doc), and the work goes on meanwhile.
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

/// Tells a background read to stop when dropped.
#[derive(Default)]
struct Stop(Arc<AtomicBool>);

impl Drop for Stop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A create revision already sent when `Lock`'s answer came: the read and the answer can
/// cross.
fn created_heard(heard: &Receiver<Waited>) -> Option<u64> {
    heard.try_iter().find_map(|waited| match waited {
        Waited::Created(revision) => Some(revision),
        _ => None,
    })
}

/// The key etcd's lock API puts for a client waiting with `lease` (the gateway's decimal ID):
/// the lock's name, a slash, the lease ID in lower-case hex (`concurrency.NewMutex` and
/// `Mutex.Lock`: `fmt.Sprintf("%s%x", m.pfx, s.Lease())`, the prefix being the name and `/`).
fn own_key(lock_name: &str, lease: &str) -> Option<String> {
    let id: i64 = lease.parse().ok()?;
    Some(format!("{lock_name}/{id:x}"))
}

/// The create revision of `key`, if it exists: a range of that one key.
fn create_revision(
    gateway: &Gateway,
    key: &str,
    wait: Option<Duration>,
) -> Result<Option<u64>, GatewayError> {
    let answer = gateway.post(
        "/v3/kv/range",
        &json!({ "key": encoded(key.as_bytes()) }),
        wait,
    )?;
    let first = answer.get("kvs").and_then(|kvs| kvs.get(0));
    Ok(first
        .and_then(|kv| integer(kv.get("create_revision")))
        .and_then(|revision| u64::try_from(revision).ok()))
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
