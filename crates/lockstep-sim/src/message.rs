//! What nodes say to each other. These are the protocol's words, independent of who carries them
//! (see `network`) and of how a node reacts to them (see `client`, `lock_service`, `resource`).

use crate::time::Millis;
use crate::token::FencingToken;
use serde::{Deserialize, Serialize};

/// The body of one message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Payload {
    /// Client → lock service: grant me the lock for `ttl`.
    Acquire { ttl: Millis },
    /// Lock service → client: the answer to `Acquire`.
    AcquireReply(AcquireReply),
    /// Client → lock service: give up the lease named by `token`.
    Release { token: Option<FencingToken> },
    /// Lock service → client: whether the release removed anything.
    ReleaseReply { released: bool },
    /// Client → resource: read the current value.
    Read,
    /// Resource → client: the value and the version it had.
    ReadReply { value: i64, version: u64 },
    /// Client → resource: write `value`, presenting `token`; `based_on` is the version the client
    /// read first, for a read-modify-write.
    Write(WriteRequest),
    /// Resource → client: what became of the write.
    WriteReply(WriteOutcome),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AcquireReply {
    Granted { token: Option<FencingToken> },
    HeldElsewhere,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WriteRequest {
    pub token: Option<FencingToken>,
    pub value: i64,
    pub based_on: Option<u64>,
}

/// Why a resource refused a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// The token is lower than one the resource has already accepted.
    StaleToken {
        presented: FencingToken,
        required: FencingToken,
    },
    /// Fencing is on but the write carried no token at all.
    NoToken,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteOutcome {
    Accepted { version: u64 },
    Rejected(Refusal),
}

impl Payload {
    /// A short name for timelines and logs.
    pub fn label(&self) -> &'static str {
        match self {
            Payload::Acquire { .. } => "acquire",
            Payload::AcquireReply(AcquireReply::Granted { .. }) => "granted",
            Payload::AcquireReply(AcquireReply::HeldElsewhere) => "held elsewhere",
            Payload::Release { .. } => "release",
            Payload::ReleaseReply { .. } => "release reply",
            Payload::Read => "read",
            Payload::ReadReply { .. } => "read reply",
            Payload::Write(_) => "write",
            Payload::WriteReply(WriteOutcome::Accepted { .. }) => "accepted",
            Payload::WriteReply(WriteOutcome::Rejected(_)) => "rejected",
        }
    }
}
