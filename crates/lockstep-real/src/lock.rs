//! A real lock service as the clients use it: acquire with a lease, release as the client says.
//! One implementation per service (`postgres::SqlRowLock`, `redis::CacheLock`); the run knows
//! only this.

use crate::etcd::gateway::GatewayError;
use crate::link::LinkError;
use lockstep_sim::story::recorded::{Acquired, Renewed, Request};
use lockstep_sim::vocabulary::message::ReleaseMethod;
use thiserror::Error;

/// What an acquisition that succeeded holds: the token, if the service issues one, and the
/// value that says the lock is this acquisition's (Redis's random value; the SQL row's holder).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grant {
    pub token: Option<u64>,
    pub value: String,
}

/// Why a client's request (to the lock service or the register) got no answer it can use. The
/// run records it unanswered, with these words among its failures.
#[derive(Debug, Error)]
pub enum RequestError {
    #[error(transparent)]
    Postgres(#[from] postgres::Error),
    #[error(transparent)]
    Redis(#[from] redis::RedisError),
    #[error(transparent)]
    Etcd(#[from] GatewayError),
    #[error(transparent)]
    Link(#[from] LinkError),
    /// The client crashed before it sent the request: it sends nothing more.
    #[error("{client} has crashed")]
    Crashed { client: String },
    /// The client crashed while the request was out: the answer is lost.
    #[error("{client} crashed before the answer came")]
    CrashedBeforeAnswer { client: String },
    /// A Redlock node did not answer within the node timeout.
    #[error("no answer within the node timeout ({timeout_ms} ms)")]
    NodeTimeout { timeout_ms: u64 },
    /// A Redlock node's connection broke, and broke again once made anew.
    #[error("the connection to {node} broke twice")]
    BrokeTwice { node: String },
    /// This runner's Redlock clients take the lock once and do not renew (the plan says so).
    #[error("this runner's Redlock clients do not renew")]
    RedlockRenewal,
    /// An etcd renewal before any lease was granted.
    #[error("a renewal without a lease granted")]
    NoLease,
    /// etcd's answer to a lease grant had no lease ID: the answer.
    #[error("etcd granted a lease without an ID: {0}")]
    NoLeaseId(String),
    /// The lease was gone by its first keepalive, before the lock was asked for.
    #[error("the lease ran out before its first keepalive")]
    LeaseGone,
}

pub trait LockService {
    /// The lock for `ttl_ms`, or `None` when it is held elsewhere. `attempt` numbers the
    /// client's acquisitions, to make each one's value its own.
    fn acquire(
        &mut self,
        client: &str,
        attempt: u32,
        ttl_ms: u64,
    ) -> Result<Option<Grant>, RequestError>;

    /// Gives the lock back; whether anything was released.
    fn release(&mut self, grant: &Grant, method: ReleaseMethod) -> Result<bool, RequestError>;

    /// Extends the lease `grant` took to `ttl_ms` from now, if it is still this client's;
    /// whether it was.
    fn renew(&mut self, grant: &Grant, ttl_ms: u64) -> Result<bool, RequestError>;

    /// The server the next request goes to, where the service has several that take turns
    /// (a primary, then its promoted replica); `None` for one server.
    fn server(&self) -> Option<String> {
        None
    }
}

/// An acquire request as recorded, given its answer (`None`: it got none) and the lease asked.
pub fn acquire_request(answer: Option<&Option<Grant>>, ttl_ms: u64) -> Request {
    Request::Acquire(answer.map(|grant| match grant {
        Some(grant) => Acquired::Granted {
            token: grant.token,
            ttl_ms: Some(ttl_ms),
        },
        None => Acquired::Refused,
    }))
}

/// A renewal as recorded, given its answer (`None`: it got none): whether the service still
/// held the lease.
pub fn renew_request(answer: Option<&bool>, ttl_ms: u64) -> Request {
    Request::Renew(answer.map(|&yes| {
        if yes {
            Renewed::Extended {
                ttl_ms: Some(ttl_ms),
            }
        } else {
            Renewed::Refused
        }
    }))
}
