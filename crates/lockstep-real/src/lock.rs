//! A real lock service as the clients use it: acquire with a lease, release as the client says.
//! One implementation per service (`postgres::SqlRowLock`, `redis::CacheLock`); the run knows
//! only this.

use lockstep_sim::story::recorded::{Acquired, Renewed, Request};
use lockstep_sim::vocabulary::message::ReleaseMethod;

/// What an acquisition that succeeded holds: the token, if the service issues one, and the
/// value that says the lock is this acquisition's (Redis's random value; the SQL row's holder).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grant {
    pub token: Option<u64>,
    pub value: String,
}

pub trait LockService {
    /// The lock for `ttl_ms`, or `None` when it is held elsewhere. `attempt` numbers the
    /// client's acquisitions, to make each one's value its own.
    fn acquire(&mut self, client: &str, attempt: u32, ttl_ms: u64)
    -> Result<Option<Grant>, String>;

    /// Gives the lock back; whether anything was released.
    fn release(&mut self, grant: &Grant, method: ReleaseMethod) -> Result<bool, String>;

    /// Extends the lease `grant` took to `ttl_ms` from now, if it is still this client's;
    /// whether it was.
    fn renew(&mut self, grant: &Grant, ttl_ms: u64) -> Result<bool, String>;

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
