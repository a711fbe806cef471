//! Committing: the seam between Raft and the lock. Entries a majority has are applied to the
//! lock table, and the leader learns what changed (`Applied`) to answer clients. Which entries
//! may commit is the log's rule (`log.rs`); answering is the lock's (`calls.rs`).

use super::Replica;
use super::lock_state::Lease;
use super::raft_state::Applied;
use super::raft_state::RaftRole;
use crate::vocabulary::raft::Op;
use crate::world::time::LocalTime;

impl Replica {
    /// Commits up to `index` and applies the newly committed entries; returns the last change
    /// that matters to clients.
    pub fn commit_to(&mut self, index: u32, now: LocalTime) -> Applied {
        let mut applied = Applied::Nothing;
        let leader = self.role == RaftRole::Leader;
        while self.commit < index.min(self.last_index()) {
            let entry = self.log[self.commit as usize];
            self.commit += 1;
            // Entries of an earlier term were a former leader's to answer for; a new leader
            // applies them but reports nothing new (no second grant of the same revision).
            let fresh = entry.term == self.term;
            let change = match entry.op {
                Op::Noop => applied,
                Op::Grant {
                    client,
                    revision,
                    ttl,
                    ..
                }
                | Op::Wait {
                    client,
                    revision,
                    ttl,
                    ..
                } => {
                    if let Some(key) = entry
                        .op
                        .key()
                        .filter(|_| self.table.key_of(client).is_none())
                    {
                        let at = self.table.keys.partition_point(|k| k.revision < revision);
                        self.table.keys.insert(at, key);
                    }
                    self.table.revision = self.table.revision.max(revision);
                    if leader {
                        let granted = matches!(entry.op, Op::Grant { .. });
                        match self.leases.iter_mut().find(|l| l.client == client) {
                            // A lock taken at once starts its session when the grant commits.
                            Some(lease) if granted => lease.until = now.after(ttl),
                            Some(_) => {}
                            // A key an earlier leader put: its session starts afresh here.
                            None => self.leases.push(Lease {
                                client,
                                until: now.after(ttl),
                            }),
                        }
                    }
                    Applied::Put { client }
                }
                Op::Release { client } => {
                    let revision = self.table.key_of(client).map(|k| k.revision);
                    self.table.keys.retain(|k| k.client != client);
                    self.leases.retain(|l| l.client != client);
                    Applied::Released { client, revision }
                }
                Op::Expire { client } => {
                    let held = self.table.holder().is_some_and(|k| k.client == client);
                    self.table.keys.retain(|k| k.client != client);
                    self.leases.retain(|l| l.client != client);
                    if held && leader && self.config.lock_delay.0 > 0 {
                        self.delay_until = Some(now.after(self.config.lock_delay));
                    }
                    Applied::Expired { client }
                }
            };
            if fresh {
                applied = change;
            }
        }
        applied
    }
}
