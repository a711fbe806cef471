//! The recorded history's file as written: the serde shapes of `docs/history-format.md`.
//! Flat on purpose: a converter written in any language fills the fields an operation has and
//! leaves out the rest; `history.rs` turns it into types and says what is missing where.

use crate::vocabulary::happening::Direction;
use serde::{Deserialize, Serialize};

/// The version of the history format this build writes and reads.
pub const HISTORY_FORMAT_VERSION: u32 = 1;

/// A recorded history as the file holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedFile {
    /// The format's version, read first: 1.
    pub history: u32,
    pub title: String,
    /// The built-in scenario this history plays, if it plays one (its id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    pub recorded: Recording,
    /// The lock service's lane name ("postgres", "redis").
    pub lock_service: String,
    /// The resource's lane name ("register").
    pub resource: String,
    /// The resource's value before the first write.
    pub initial_value: i64,
    pub fencing: RecordedFencing,
    /// How many servers' grants make the lock, where a client asks several at once and counts
    /// (Redlock: a majority of its nodes); left out, one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quorum: Option<u32>,
    pub operations: Vec<FileOperation>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<FileFault>,
}

/// Who recorded the history, when, and against which systems (name and version each).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recording {
    /// The recorder: "lockstep-real 0.1.0", or a converter's name.
    pub by: String,
    /// The day, as `YYYY-MM-DD`.
    pub on: String,
    /// "PostgreSQL 15.14", "Redis 7.0.15".
    pub against: Vec<String>,
}

/// Whether the resource checked tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordedFencing {
    /// It accepted a write only with a token at least the highest it had seen.
    On,
    /// It accepted every write.
    Off,
    /// The recorder does not say.
    Unknown,
}

/// What a request asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpKind {
    Acquire,
    Read,
    Write,
    Release,
    /// A renewal of the lease the client holds (a keepalive): `renewed`, with `ttl_ms`.
    Renew,
}

/// One request as the file holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileOperation {
    pub client: String,
    pub op: OpKind,
    /// When the request was sent.
    pub at_ms: u64,
    /// The server that was asked, where the lock service has several (a primary and its
    /// replica, Redlock's nodes); left out, the lock service (or the resource) itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// When its answer came; left out when none came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_ms: Option<u64>,
    /// An acquire's answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub granted: Option<bool>,
    /// The token a grant came with, or a write carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<u64>,
    /// The lease a grant came with, or a renewal extended to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// The value read, or written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    /// A write's answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted: Option<bool>,
    /// When the resource applied a write, by the resource's own log: what shows that a write
    /// whose client never saw an answer (it crashed; the answer was lost) took effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied_ms: Option<u64>,
    /// A release's answer: whether the service let anything go.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub released: Option<bool>,
    /// A renewal's answer: whether the service extended the client's lease.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renewed: Option<bool>,
}

/// A fault the recorder applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// The node stopped (a GC pause, `SIGSTOP`) for `for_ms`.
    Pause,
    Crash,
    Restart,
    /// A replica was promoted in its primary's place.
    Failover,
    /// The node's clock jumped by `by_ms`.
    ClockJump,
    /// The link between the node and `peer` was cut: both ways, or (`direction: "one_way"`)
    /// only what the node sends.
    Cut,
}

/// One fault as the file holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileFault {
    pub at_ms: u64,
    /// The client's or server's name it was applied to.
    pub node: String,
    pub fault: FaultKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub for_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_ms: Option<i64>,
    /// A cut's other end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peer: Option<String>,
    /// A cut's direction: absent for both ways (as every file before it says), `one_way` when
    /// only the node's messages to `peer` are lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<Direction>,
}
