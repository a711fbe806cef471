//! The lessor (etcd's name): whether a leader answers for the lock yet. A new leader serves only
//! once an entry of its own term has committed (Raft §8), and only while it has a quorum.

use super::Replica;
use super::lock_state::Lease;
use super::lock_state::Lessor;
use crate::world::node::Ctx;
use crate::world::time::LocalTime;

impl Replica {
    /// Whether this replica answers for the lock now: a promoted leader with a quorum.
    pub fn serving(&self, now: LocalTime) -> bool {
        self.lessor == Lessor::Primary && self.has_quorum(now)
    }

    /// The leader's own entry has committed: it starts answering for the lock from what the
    /// log says. Sessions survive the change of leader: every key's client gets a full TTL
    /// from now, as Consul resets a session on failover (etcd's `Promote` extends each lease to
    /// its TTL plus an election timeout, a little longer).
    pub(super) fn promote(&mut self, ctx: &mut Ctx<'_>) {
        self.lessor = Lessor::Primary;
        self.leases = self
            .keys()
            .iter()
            .map(|k| Lease {
                client: k.client,
                until: ctx.local.after(k.ttl),
            })
            .collect();
        self.arm_sessions(ctx);
    }
}
