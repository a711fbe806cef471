//! The lock's keys as the whole log says they are: committed in the table or still on their way
//! through the log, and the revision the next key takes. Reading only: keys are put and removed
//! by applying committed entries (`commit.rs`).

use super::Replica;
use crate::vocabulary::raft::{LockKey, Op};
use crate::world::ids::NodeId;
use crate::world::token::FencingToken;

impl Replica {
    /// The keys on their way through the log (put, not yet committed).
    pub(super) fn pending_keys(&self) -> impl Iterator<Item = (NodeId, FencingToken)> + '_ {
        self.log[self.commit as usize..]
            .iter()
            .filter_map(|e| match e.op {
                Op::Grant {
                    client, revision, ..
                }
                | Op::Wait {
                    client, revision, ..
                } => Some((client, revision)),
                _ => None,
            })
    }

    /// The revision of `client`'s key, committed or on its way.
    pub(super) fn revision_of(&self, client: NodeId) -> Option<FencingToken> {
        self.table.key_of(client).map(|k| k.revision).or_else(|| {
            self.pending_keys()
                .find(|&(c, _)| c == client)
                .map(|(_, r)| r)
        })
    }

    /// The revision the next key gets: one past every key in the log, committed or not.
    pub fn next_revision(&self) -> FencingToken {
        let logged = self
            .log
            .iter()
            .filter_map(|e| e.op.key().map(|k| k.revision));
        logged.fold(self.table.revision, FencingToken::max).next()
    }

    /// Every key, committed or on its way through the log, lowest revision first.
    pub(super) fn keys(&self) -> Vec<LockKey> {
        self.table
            .keys
            .iter()
            .copied()
            .chain(
                self.log[self.commit as usize..]
                    .iter()
                    .filter_map(|e| e.op.key()),
            )
            .collect()
    }
}
