//! What nodes say to each other. These are the protocol's words, independent of who carries them
//! (see `network`) and of how a node reacts to them (see `client`, `lock_service`, `resource`).

use crate::vocabulary::cache_entry::ReplicaWrite;
use crate::vocabulary::lock_value::LockValue;
use crate::vocabulary::raft::RaftMessage;
use crate::world::ids::NodeId;
use crate::world::time::Millis;
use crate::world::token::FencingToken;
use serde::{Deserialize, Serialize};

/// How a client gives the lock back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReleaseMethod {
    /// Only if the lock is still mine: the SQL row's `holder_id` and `fencing_token` must match,
    /// or the cache's value must (the Lua compare-and-delete).
    IfStillMine,
    /// Unconditionally (`DEL lock`): the hazard, since it can delete someone else's lock.
    PlainDelete,
}

/// What a write rests on: nothing, a version read earlier, or a version the
/// resource must still be at. One enum, because "condition without a read"
/// is not a write anyone makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteBasis {
    /// A blind write: it read nothing first.
    Blind,
    /// A read-modify-write from version `v`; the resource writes whatever its
    /// current version and reports the updates the writer never saw.
    ReadAt(u64),
    /// Optimistic concurrency: `... WHERE version = :expected_version`.
    IfVersion(u64),
}

/// The body of one message. `PayloadKind`, the same without the bodies, is derived from it (its
/// names are the trace format's `sent` kinds, the payload's own serde names), so the two cannot
/// drift apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, strum::EnumDiscriminants)]
#[serde(rename_all = "snake_case")]
#[strum_discriminants(
    name(PayloadKind),
    derive(Serialize, Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum Payload {
    /// Client → lock service: grant me the lock for `ttl`, storing `value`.
    Acquire { ttl: Millis, value: LockValue },
    /// Lock service → client: the answer to the `Acquire` that carried `value` (a client that
    /// asks again after a timeout must not take a late answer to an earlier attempt as its own).
    AcquireReply {
        value: LockValue,
        reply: AcquireReply,
    },
    /// Client → lock service: extend my lease by `ttl` from now.
    Renew {
        token: Option<FencingToken>,
        value: LockValue,
        ttl: Millis,
    },
    /// Lock service → client: whether the lease was extended.
    RenewReply { renewed: bool },
    /// Client → lock service: give up the lease.
    Release {
        token: Option<FencingToken>,
        value: LockValue,
        method: ReleaseMethod,
    },
    /// Lock service → client: whether the release removed anything.
    ReleaseReply { released: bool },
    /// Client → resource: read the current value. A lock holder sends its lock's value as
    /// `claim`: a check-and-set resource remembers it and from then on accepts writes only with
    /// that value (antirez's answer to fencing for Redlock).
    Read { claim: Option<LockValue> },
    /// Resource → client: the value and the version it had.
    ReadReply { value: i64, version: u64 },
    /// Client → resource: write a value.
    Write(WriteRequest),
    /// Client → resource: take `amount` from the stock (the seed's inventory `UPDATE`).
    Decrement {
        token: Option<FencingToken>,
        amount: i64,
    },
    /// Client → resource: charge once for the request named by `key`.
    Charge { key: u32, amount: i64 },
    /// Resource → client: what became of a write, decrement or charge.
    WriteReply(WriteOutcome),
    /// Primary → replica: the lock key's new state, shipped asynchronously.
    Replicate(ReplicaWrite),
    /// Between the replicas of a consensus-replicated service.
    Raft(RaftMessage),
    /// A consensus replica that is not the leader → client: ask the leader.
    NotLeader,
    /// Leader → a watching client: the lock was released (herd mode).
    LockFreed,
    /// Resource → lock service: is `token` still `writer`'s live lease? (Chubby's
    /// `CheckSequencer()`.)
    CheckSequencer { writer: NodeId, token: FencingToken },
    /// Lock service → resource: the answer.
    SequencerChecked {
        writer: NodeId,
        token: FencingToken,
        valid: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AcquireReply {
    Granted {
        token: Option<FencingToken>,
    },
    HeldElsewhere,
    /// A waiter's turn came, but its session had expired while it waited and its key had gone
    /// with it: the `Lock` call fails with etcd's `ErrSessionExpired` (the fix of PR #11408),
    /// which says nothing about who holds the lock.
    SessionExpired,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WriteRequest {
    pub token: Option<FencingToken>,
    pub value: i64,
    pub basis: WriteBasis,
    /// The writer's lock value, for a check-and-set resource.
    pub lock: Option<LockValue>,
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
    /// Optimistic concurrency: the row is no longer at the version the writer read.
    VersionChanged { expected: u64, actual: u64 },
    /// Not enough stock left.
    SoldOut { wanted: i64, left: i64 },
    /// A check-and-set resource: another lock holder has claimed it since.
    ClaimedByAnother,
    /// The lock service said the write's token is no longer its writer's live lease.
    SequencerInvalid { presented: FencingToken },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteOutcome {
    Accepted {
        version: u64,
    },
    /// An idempotent request seen before: the saved answer, and nothing done again.
    Replayed {
        version: u64,
    },
    Rejected(Refusal),
}

/// Which of a Redlock client's all-node requests an answer belongs to. Only an acquisition is a
/// vote; the answers to an unlock or an extension are counted, but no majority is formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedlockRound {
    Acquire,
    Renew,
    Release,
}

impl Payload {
    /// The round this payload answers, if it answers a lock request: a yes means granted,
    /// extended or unlocked.
    pub fn answers_round(&self) -> Option<RedlockRound> {
        match self {
            Payload::AcquireReply { .. } => Some(RedlockRound::Acquire),
            Payload::RenewReply { .. } => Some(RedlockRound::Renew),
            Payload::ReleaseReply { .. } => Some(RedlockRound::Release),
            _ => None,
        }
    }

    /// A short name for timelines and logs.
    pub fn label(&self) -> &'static str {
        match self {
            Payload::Acquire { .. } => "acquire",
            Payload::AcquireReply {
                reply: AcquireReply::Granted { .. },
                ..
            } => "granted",
            Payload::AcquireReply {
                reply: AcquireReply::HeldElsewhere,
                ..
            } => "held elsewhere",
            Payload::AcquireReply {
                reply: AcquireReply::SessionExpired,
                ..
            } => "session expired",
            Payload::Renew { .. } => "renew",
            Payload::RenewReply { renewed: true } => "renewed",
            Payload::RenewReply { renewed: false } => "not renewed",
            Payload::Release { .. } => "release",
            Payload::ReleaseReply { .. } => "release reply",
            Payload::Read { .. } => "read",
            Payload::ReadReply { .. } => "read reply",
            Payload::Write(_) => "write",
            Payload::Decrement { .. } => "decrement",
            Payload::Charge { .. } => "charge",
            Payload::WriteReply(WriteOutcome::Accepted { .. }) => "accepted",
            Payload::WriteReply(WriteOutcome::Replayed { .. }) => "replayed",
            Payload::WriteReply(WriteOutcome::Rejected(_)) => "rejected",
            Payload::Replicate(_) => "replicate",
            Payload::Raft(RaftMessage::Append { entry: Some(_), .. }) => "append",
            Payload::Raft(RaftMessage::Append { entry: None, .. }) => "heartbeat",
            Payload::Raft(RaftMessage::Ack { .. }) => "ack",
            Payload::Raft(RaftMessage::Vote { .. }) => "vote request",
            Payload::Raft(RaftMessage::VoteReply { .. }) => "vote",
            Payload::NotLeader => "not the leader",
            Payload::LockFreed => "lock freed",
            Payload::CheckSequencer { .. } => "check sequencer",
            Payload::SequencerChecked { valid: true, .. } => "sequencer valid",
            Payload::SequencerChecked { valid: false, .. } => "sequencer invalid",
        }
    }
}

/// What an answer says, in one word: the part of a reply an outsider needs to judge a run (a
/// grant, a refusal and an expired session are all `acquire_reply`s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    Granted,
    HeldElsewhere,
    SessionExpired,
    Renewed,
    NotRenewed,
    Released,
    NotReleased,
    Accepted,
    Replayed,
    Rejected,
    Valid,
    Invalid,
}

impl Payload {
    /// Which kind of message this is, without its body.
    pub fn kind(&self) -> PayloadKind {
        PayloadKind::from(self)
    }

    /// What the payload answers, when it is an answer that says yes or no.
    pub fn reply(&self) -> Option<Reply> {
        Some(match self {
            Payload::AcquireReply { reply, .. } => match reply {
                AcquireReply::Granted { .. } => Reply::Granted,
                AcquireReply::HeldElsewhere => Reply::HeldElsewhere,
                AcquireReply::SessionExpired => Reply::SessionExpired,
            },
            Payload::RenewReply { renewed: true } => Reply::Renewed,
            Payload::RenewReply { renewed: false } => Reply::NotRenewed,
            Payload::ReleaseReply { released: true } => Reply::Released,
            Payload::ReleaseReply { released: false } => Reply::NotReleased,
            Payload::WriteReply(WriteOutcome::Accepted { .. }) => Reply::Accepted,
            Payload::WriteReply(WriteOutcome::Replayed { .. }) => Reply::Replayed,
            Payload::WriteReply(WriteOutcome::Rejected(_)) => Reply::Rejected,
            Payload::SequencerChecked { valid: true, .. } => Reply::Valid,
            Payload::SequencerChecked { valid: false, .. } => Reply::Invalid,
            Payload::Acquire { .. }
            | Payload::Renew { .. }
            | Payload::Release { .. }
            | Payload::Read { .. }
            | Payload::ReadReply { .. }
            | Payload::Write(_)
            | Payload::Decrement { .. }
            | Payload::Charge { .. }
            | Payload::Replicate(_)
            | Payload::Raft(_)
            | Payload::NotLeader
            | Payload::LockFreed
            | Payload::CheckSequencer { .. } => return None,
        })
    }

    /// The fencing token the body carries, if any. A Raft message's log entries are not read
    /// here: a replica's `appended` event shows them, and between replicas they tell no client
    /// anything.
    pub fn token(&self) -> Option<FencingToken> {
        match *self {
            Payload::AcquireReply {
                reply: AcquireReply::Granted { token },
                ..
            }
            | Payload::Renew { token, .. }
            | Payload::Release { token, .. }
            | Payload::Write(WriteRequest { token, .. })
            | Payload::Decrement { token, .. } => token,
            Payload::CheckSequencer { token, .. } | Payload::SequencerChecked { token, .. } => {
                Some(token)
            }
            Payload::Replicate(ReplicaWrite { entry, .. }) => entry.and_then(|e| e.token),
            Payload::Acquire { .. }
            | Payload::AcquireReply { .. }
            | Payload::RenewReply { .. }
            | Payload::ReleaseReply { .. }
            | Payload::Read { .. }
            | Payload::ReadReply { .. }
            | Payload::Charge { .. }
            | Payload::WriteReply(_)
            | Payload::Raft(_)
            | Payload::NotLeader
            | Payload::LockFreed => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grant_says_granted_and_carries_its_token_and_a_refusal_carries_none() {
        let granted = Payload::AcquireReply {
            value: LockValue(1),
            reply: AcquireReply::Granted {
                token: Some(FencingToken(34)),
            },
        };
        assert_eq!(granted.reply(), Some(Reply::Granted));
        assert_eq!(granted.token(), Some(FencingToken(34)));
        let refused = Payload::AcquireReply {
            value: LockValue(1),
            reply: AcquireReply::SessionExpired,
        };
        assert_eq!(refused.reply(), Some(Reply::SessionExpired));
        assert_eq!(refused.token(), None);
        assert_eq!(Payload::NotLeader.reply(), None);
    }
}
