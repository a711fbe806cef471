//! One request of a recorded history, typed: what a client asked, when, and what came back.

/// One request of one client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub client: String,
    pub at_ms: u64,
    /// `None`: no answer came.
    pub answered_ms: Option<u64>,
    /// The server asked, where the lock service has several (`None`: the lock service, or
    /// the resource, itself).
    pub server: Option<String>,
    pub request: Request,
}

/// What a request asked, and what its answer said (nothing for a request never answered).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    Acquire(Option<Acquired>),
    Read(Option<i64>),
    Write {
        token: Option<u64>,
        value: i64,
        outcome: Option<Written>,
        /// When the resource applied it, where its own log says: a write can take effect
        /// though its client never saw the answer.
        applied_ms: Option<u64>,
    },
    /// `Some(false)`: the service had nothing of this client's to let go.
    Release(Option<bool>),
    /// A renewal (a keepalive) of the lease the client holds.
    Renew(Option<Renewed>),
}

impl Operation {
    /// When a write took effect, if the resource accepted it: when the resource's log says it
    /// applied it, or else when its client was told it was accepted. `None` for a write that
    /// was refused, or never answered nor logged, and for every other request.
    pub fn write_landed_ms(&self) -> Option<u64> {
        match self.request {
            Request::Write {
                outcome: Some(Written::Accepted),
                ..
            } => self.applied_ms().or(self.answered_ms),
            _ => self.applied_ms(),
        }
    }

    /// When the resource's log says it applied this write, if it is a write the log shows.
    pub fn applied_ms(&self) -> Option<u64> {
        match self.request {
            Request::Write { applied_ms, .. } => applied_ms,
            _ => None,
        }
    }
}

/// A renewal's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Renewed {
    /// The lease now lasts `ttl_ms` (if said) from the renewal.
    Extended { ttl_ms: Option<u64> },
    /// The service no longer holds a lease of this client's: the client has lost the lock.
    Refused,
}

/// An acquire's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acquired {
    Granted {
        token: Option<u64>,
        ttl_ms: Option<u64>,
    },
    /// Held by someone else.
    Refused,
}

/// A write's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    Accepted,
    Refused,
}
