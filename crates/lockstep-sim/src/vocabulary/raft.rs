//! What the replicas of a consensus lock service say to each other, and what their log holds
//! (see `lock_service::consensus`).

use crate::vocabulary::lock_value::LockValue;
use crate::world::ids::NodeId;
use crate::world::time::{LocalTime, Millis};
use crate::world::token::FencingToken;
use serde::{Deserialize, Serialize};

/// What one log entry does to the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "op")]
pub enum Op {
    /// A new leader's first entry, which lets it commit what earlier leaders left.
    Noop,
    /// `client` puts its key while no other key exists: it holds the lock once this commits.
    Grant {
        client: NodeId,
        value: LockValue,
        revision: FencingToken,
        ttl: Millis,
    },
    /// `client` puts its key behind the keys already there: it holds the lock once every key
    /// with a lower revision is gone.
    Wait {
        client: NodeId,
        value: LockValue,
        revision: FencingToken,
        ttl: Millis,
    },
    Release {
        client: NodeId,
    },
    /// The client's session expired (it stopped sending keepalives): its key is deleted.
    Expire {
        client: NodeId,
    },
}

impl Op {
    /// The key a `grant` or `wait` entry puts; none for the other entries.
    pub fn key(self) -> Option<LockKey> {
        match self {
            Op::Grant {
                client,
                value,
                revision,
                ttl,
            }
            | Op::Wait {
                client,
                value,
                revision,
                ttl,
            } => Some(LockKey {
                client,
                value,
                revision,
                ttl,
            }),
            Op::Noop | Op::Release { .. } | Op::Expire { .. } => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub term: u32,
    pub op: Op,
}

/// What the replicas say to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "raft")]
pub enum RaftMessage {
    /// Leader → follower: the entry at `index` (1-based; `None` for a heartbeat, where `index`
    /// is where the leader's next entry would go), the term of the entry before it, and how far
    /// the log is committed.
    Append {
        term: u32,
        index: u32,
        prev_term: u32,
        entry: Option<Entry>,
        commit: u32,
        /// The leader's clock when it sent this: the ack echoes it, so that the leader counts
        /// a follower as heard from when it asked, not when a late answer reaches it.
        sent: LocalTime,
    },
    /// Follower → leader: how much of the leader's log it now has (`ok` false: it refused), and
    /// the `sent` of the append it answers.
    Ack {
        term: u32,
        matched: u32,
        ok: bool,
        sent: LocalTime,
    },
    /// Candidate → everyone: vote for me in `term`; my log ends at `last_index` / `last_term`.
    Vote {
        term: u32,
        last_index: u32,
        last_term: u32,
    },
    VoteReply {
        term: u32,
        granted: bool,
    },
}

/// One contender's key (etcd's `prefix/<leaseID>`): its create revision is its fencing token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockKey {
    pub client: NodeId,
    /// The value of the acquire that put the key, which the answer names.
    pub value: LockValue,
    pub revision: FencingToken,
    /// The TTL of the client's session.
    pub ttl: Millis,
}
