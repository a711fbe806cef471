//! What a lock-service node shows a reader, whatever its design: its part in its group
//! (`NodeRole`) and what its own storage says about the lock (`Record`). Read through
//! `LockService::role` and `LockService::record`, so that every view (the inspector, the stage,
//! the comparison) renders the same two values instead of matching on each design's fields.
//! The inspector, which lists a node's storage as a table, also reads the rest of it
//! (`Storage`, through `LockService::storage`): the row's or key's name, expiry, counters, log.
//! Plain values: this module imports no design, so the designs may import it.

use crate::vocabulary::lock_value::LockValue;
use crate::world::ids::NodeId;
use crate::world::time::LocalTime;
use crate::world::token::FencingToken;

/// A service node's part in its group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeRole {
    /// A lone node (the SQL row, one Redis, a Redlock node, a data grid's member).
    Alone,
    /// A replicated cache's primary, which clients ask.
    Primary,
    /// A replicated cache's replica, which the primary ships its key to.
    Replica,
    /// A consensus replica, with the term it is in.
    Leader {
        term: u32,
    },
    Follower {
        term: u32,
    },
    Candidate {
        term: u32,
    },
}

impl NodeRole {
    /// The Raft term, for a consensus replica.
    pub fn term(self) -> Option<u32> {
        match self {
            NodeRole::Leader { term }
            | NodeRole::Follower { term }
            | NodeRole::Candidate { term } => Some(term),
            NodeRole::Alone | NodeRole::Primary | NodeRole::Replica => None,
        }
    }
}

/// What a service node's own storage says about the lock (which may not be the truth: a stored
/// key whose release has not committed, a row whose lease has expired).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Record {
    /// Nobody's key or row.
    Empty,
    /// The SQL row names `holder`; `live` says whether its lease has not expired yet.
    Row {
        holder: NodeId,
        token: FencingToken,
        live: bool,
    },
    /// A cache key set by `holder` (an expired key is gone, as in Redis).
    Key {
        holder: NodeId,
        token: Option<FencingToken>,
    },
    /// A Raft replica's lowest key: etcd's lock is held by its owner; the revision is its token.
    LowestKey {
        holder: NodeId,
        revision: FencingToken,
    },
}

impl Record {
    /// Whom the record names, if anyone.
    pub fn holder(self) -> Option<NodeId> {
        match self {
            Record::Empty => None,
            Record::Row { holder, .. }
            | Record::Key { holder, .. }
            | Record::LowestKey { holder, .. } => Some(holder),
        }
    }

    /// The fencing token the record carries, if any.
    pub fn token(self) -> Option<FencingToken> {
        match self {
            Record::Empty => None,
            Record::Row { token, .. } => Some(token),
            Record::Key { token, .. } => token,
            Record::LowestKey { revision, .. } => Some(revision),
        }
    }
}

/// The rest of a node's storage, beside its `Record`, which only the inspector's table lists:
/// what each design keeps besides the holder and its token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage<'a> {
    /// The SQL row's own columns: its name, its counter (which stays when the holder is
    /// cleared) and its expiry (`None`: `NULL`).
    Row {
        lock_name: &'a str,
        fencing_token: FencingToken,
        expires_at: Option<LocalTime>,
    },
    /// A cache key's name, and its live entry's value and expiry (`None`: no live entry).
    Key {
        key: &'a str,
        entry: Option<(LockValue, LocalTime)>,
    },
    /// A consensus replica's log, the highest revision it has given, and its queue.
    Log {
        entries: usize,
        committed: u32,
        revision: FencingToken,
        waiting: usize,
    },
}
