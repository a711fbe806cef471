//! What happened in one event, in the domain's own terms.
//!
//! Every handled input produces exactly one `Happening`. It carries the facts the invariant checker
//! needs and the facts the narration needs, and nothing else: it is plain data, cheap to copy, so
//! a run of millions of events allocates nothing per event. The words come later (`describe`).

use crate::client::NextStep;
use crate::ids::{MessageId, NodeId, TimerId};
use crate::message::{Payload, Refusal, WriteOutcome};
use crate::network::Loss;
use crate::node::TimerKind;
use crate::resource::UnseenUpdates;
use crate::time::Millis;
use crate::token::FencingToken;
use serde::{Deserialize, Serialize};

/// How a client's job ended, in the seed's words: done, "lock held elsewhere" or "fenced".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "result")]
pub enum WorkResult {
    Done,
    HeldElsewhere,
    Fenced {
        presented: FencingToken,
        required: FencingToken,
    },
    NoToken,
}

/// An input a node could not handle when it came.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Input {
    Message(MessageId),
    Timer(TimerId, TimerKind),
}

/// Which way a partition cuts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Messages from the first node to the second are lost; the other way still works.
    OneWay,
    Both,
}

/// Why an intervention changed nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoEffect {
    AlreadyPaused,
    NotPaused,
    AlreadyCrashed,
    NotCrashed,
    NoSuchMessage,
    MessageNotInFlight,
    MessageNotHeld,
    NoLiveLease,
    NotAClient,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Happening {
    // Clients.
    AskedForLock {
        client: NodeId,
        ttl: Millis,
    },
    GotLock {
        client: NodeId,
        token: Option<FencingToken>,
        next: NextStep,
    },
    WillRetry {
        client: NodeId,
        retries_left: u32,
    },
    GaveUp {
        client: NodeId,
    },
    ReadReturned {
        client: NodeId,
        value: i64,
        version: u64,
        work: Millis,
    },
    WriteSent {
        client: NodeId,
        token: Option<FencingToken>,
        value: i64,
    },
    WriteAnswered {
        client: NodeId,
        token: Option<FencingToken>,
        outcome: WriteOutcome,
    },
    Finished {
        client: NodeId,
        result: WorkResult,
        released: bool,
    },
    // The lock service.
    Granted {
        client: NodeId,
        token: Option<FencingToken>,
        ttl: Millis,
    },
    Refused {
        client: NodeId,
        holder: Option<NodeId>,
    },
    Released {
        client: NodeId,
        token: Option<FencingToken>,
    },
    LeaseExpired {
        holder: NodeId,
        token: Option<FencingToken>,
    },
    ReleaseRefused {
        client: NodeId,
        token: Option<FencingToken>,
        holder: Option<NodeId>,
        current: FencingToken,
    },
    // The resource.
    ReadServed {
        reader: NodeId,
        value: i64,
        version: u64,
    },
    WriteAccepted {
        writer: NodeId,
        token: Option<FencingToken>,
        value: i64,
        version: u64,
        overwrote_unseen: Option<UnseenUpdates>,
    },
    WriteRejected {
        writer: NodeId,
        refusal: Refusal,
    },
    // Inputs that met a node unable to take them.
    Ignored {
        node: NodeId,
        payload: Option<Payload>,
    },
    Buffered {
        node: NodeId,
        input: Input,
    },
    Lost {
        node: NodeId,
        message: MessageId,
        why: Loss,
    },
    // Interventions and faults.
    Paused {
        node: NodeId,
        for_ms: Option<Millis>,
    },
    Resumed {
        node: NodeId,
        paused_for: Millis,
        waiting: u32,
    },
    Crashed {
        node: NodeId,
    },
    Restarted {
        node: NodeId,
    },
    ClockJumped {
        node: NodeId,
        by_ms: i64,
    },
    DriftChanged {
        node: NodeId,
        drift_ppm: i32,
    },
    Partitioned {
        from: NodeId,
        to: NodeId,
        direction: Direction,
    },
    Healed {
        a: NodeId,
        b: NodeId,
    },
    MessageHeld {
        message: MessageId,
    },
    MessageReleased {
        message: MessageId,
    },
    MessageDropped {
        message: MessageId,
    },
    LeaseForcedToExpire {
        holder: NodeId,
    },
    NoEffect {
        why: NoEffect,
    },
}

impl Happening {
    /// The fencing token this event is about, if any.
    pub fn token(&self) -> Option<FencingToken> {
        match *self {
            Happening::GotLock { token, .. }
            | Happening::WriteSent { token, .. }
            | Happening::WriteAnswered { token, .. }
            | Happening::Granted { token, .. }
            | Happening::Released { token, .. }
            | Happening::LeaseExpired { token, .. }
            | Happening::ReleaseRefused { token, .. }
            | Happening::WriteAccepted { token, .. } => token,
            Happening::WriteRejected {
                refusal: Refusal::StaleToken { presented, .. },
                ..
            } => Some(presented),
            Happening::Finished {
                result: WorkResult::Fenced { presented, .. },
                ..
            } => Some(presented),
            _ => None,
        }
    }

    /// A one-word outcome for events that succeed or fail, for colour and shape in the UI.
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            Happening::Granted { .. }
            | Happening::GotLock { .. }
            | Happening::Released { .. }
            | Happening::WriteAccepted { .. } => Some(Outcome::Ok),
            Happening::Refused { .. }
            | Happening::ReleaseRefused { .. }
            | Happening::WriteRejected { .. }
            | Happening::GaveUp { .. }
            | Happening::Lost { .. } => Some(Outcome::Refused),
            _ => None,
        }
    }

    /// A stable machine name for the kind of event.
    pub fn kind(&self) -> &'static str {
        match self {
            Happening::AskedForLock { .. } => "asked_for_lock",
            Happening::GotLock { .. } => "got_lock",
            Happening::WillRetry { .. } => "will_retry",
            Happening::GaveUp { .. } => "gave_up",
            Happening::ReadReturned { .. } => "read_returned",
            Happening::WriteSent { .. } => "write_sent",
            Happening::WriteAnswered { .. } => "write_answered",
            Happening::Finished { .. } => "finished",
            Happening::Granted { .. } => "granted",
            Happening::Refused { .. } => "refused",
            Happening::Released { .. } => "released",
            Happening::LeaseExpired { .. } => "lease_expired",
            Happening::ReleaseRefused { .. } => "release_refused",
            Happening::ReadServed { .. } => "read_served",
            Happening::WriteAccepted { .. } => "write_accepted",
            Happening::WriteRejected { .. } => "write_rejected",
            Happening::Ignored { .. } => "ignored",
            Happening::Buffered { .. } => "buffered",
            Happening::Lost { .. } => "lost",
            Happening::Paused { .. } => "paused",
            Happening::Resumed { .. } => "resumed",
            Happening::Crashed { .. } => "crashed",
            Happening::Restarted { .. } => "restarted",
            Happening::ClockJumped { .. } => "clock_jumped",
            Happening::DriftChanged { .. } => "drift_changed",
            Happening::Partitioned { .. } => "partitioned",
            Happening::Healed { .. } => "healed",
            Happening::MessageHeld { .. } => "message_held",
            Happening::MessageReleased { .. } => "message_released",
            Happening::MessageDropped { .. } => "message_dropped",
            Happening::LeaseForcedToExpire { .. } => "lease_forced_to_expire",
            Happening::NoEffect { .. } => "no_effect",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Ok,
    Refused,
}
