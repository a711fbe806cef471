//! Raft's values: a replica's role, what a follower did with an entry, where an append sits,
//! and what committing changed. Plain data, for the same reason as `lock_state.rs`.

use crate::vocabulary::raft::Entry;
use crate::world::ids::NodeId;
use crate::world::time::LocalTime;
use crate::world::token::FencingToken;
use serde::{Deserialize, Serialize};

/// Where a replica stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RaftRole {
    Leader,
    Follower,
    Candidate,
}

/// What a follower did with an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acceptance {
    Stored,
    AlreadyHad,
    Refused,
}

/// Where an append sits in the leader's log, and how far the leader has committed: the fields
/// of [`RaftMessage::Append`] besides its term.
#[derive(Clone, Copy, Debug)]
pub struct AppendAt {
    pub(super) index: u32,
    pub(super) prev_term: u32,
    pub(super) entry: Option<Entry>,
    pub(super) commit: u32,
    pub(super) sent: LocalTime,
}

/// What committing entries changed, for the leader to answer clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    /// A key was put (by a `Grant` or a `Wait`).
    Put {
        client: NodeId,
    },
    Released {
        client: NodeId,
        revision: Option<FencingToken>,
    },
    Expired {
        client: NodeId,
    },
    Nothing,
}
