//! A client's calls as the leader takes them: `Lock` (put a key, then wait), `Release`, and the
//! answers once what they appended has committed. Keepalives are `sessions.rs`.

use super::Replica;
use super::config::Waiting;
use super::lock_state::Lessor;
use super::raft_state::Applied;
use crate::vocabulary::happening::Happening;
use crate::vocabulary::lock_value::LockValue;
use crate::vocabulary::message::{AcquireReply, Payload};
use crate::vocabulary::raft::Op;
use crate::vocabulary::timer::{TimerKind, TimerSpan};
use crate::world::ids::NodeId;
use crate::world::node::Ctx;
use crate::world::time::Millis;
use crate::world::token::FencingToken;

impl Replica {
    /// A client's `Lock` call: it puts its key (etcd reuses the key of a session that asks
    /// again, so its revision and place stay), then waits until no lower key is left.
    pub(super) fn on_acquire(
        &mut self,
        ctx: &mut Ctx<'_>,
        from: NodeId,
        ttl: Millis,
        value: LockValue,
    ) -> Happening {
        let me = ctx.me;
        if let Some(revision) = self.revision_of(from) {
            if self.lessor == Lessor::Primary {
                self.keep_alive(ctx, from, ttl);
            }
            self.await_turn(from, value, revision);
            return match self.answer_waiters(ctx) {
                Happening::Silent => self.queued(ctx, from),
                answered => answered,
            };
        }
        let free = self.table.keys.is_empty()
            && self.pending_keys().next().is_none()
            && !self.delayed(ctx.local);
        if !free && self.config.waiters == Waiting::Herd {
            ctx.send(
                from,
                Payload::AcquireReply {
                    value,
                    reply: AcquireReply::HeldElsewhere,
                },
            );
            if !self.watchers.contains(&from) {
                self.watchers.push(from);
            }
            return Happening::Watching {
                node: me,
                client: from,
                watchers: u32::try_from(self.watchers.len()).unwrap_or(u32::MAX),
            };
        }
        let revision = self.next_revision();
        let op = if free {
            Op::Grant {
                client: from,
                value,
                revision,
                ttl,
            }
        } else {
            Op::Wait {
                client: from,
                value,
                revision,
                ttl,
            }
        };
        // A leader not serving yet starts the session when it is promoted.
        if self.lessor == Lessor::Primary {
            self.keep_alive(ctx, from, ttl);
        }
        self.await_turn(from, value, revision);
        self.append_and_replicate(ctx, op)
    }

    /// A client's `Release`: only the holder's, with its key's revision, is appended.
    pub(super) fn on_release(
        &mut self,
        ctx: &mut Ctx<'_>,
        from: NodeId,
        token: Option<FencingToken>,
    ) -> Happening {
        let current = self
            .table
            .holder()
            .is_some_and(|k| k.client == from && token == Some(k.revision));
        if !current {
            ctx.send(from, Payload::ReleaseReply { released: false });
            return Happening::ReleaseRefused {
                client: from,
                token,
                holder: self.table.holder().map(|k| k.client),
            };
        }
        self.append_and_replicate(ctx, Op::Release { client: from })
    }

    /// The leader has committed entries: answer the `Lock` calls whose turn has come, wake a
    /// herd, or say what the entry did.
    pub(super) fn answer(&mut self, ctx: &mut Ctx<'_>, applied: Applied, index: u32) -> Happening {
        let committed = Happening::Committed {
            node: ctx.me,
            index,
        };
        match applied {
            Applied::Put { client } => match self.answer_waiters(ctx) {
                Happening::Silent if self.waiters.iter().any(|w| w.client == client) => {
                    self.queued(ctx, client)
                }
                Happening::Silent => committed,
                answered => answered,
            },
            Applied::Released { client, revision } => {
                ctx.send(client, Payload::ReleaseReply { released: true });
                // What follows the release is the more telling event, when there is one.
                match self.after_a_key_went(ctx) {
                    Happening::Silent => Happening::Released {
                        client,
                        token: revision,
                    },
                    next => next,
                }
            }
            Applied::Expired { .. } => {
                if let Some(until) = self.delay_until.filter(|&until| until > ctx.local) {
                    let wait = u64::try_from(until.since(ctx.local)).unwrap_or(0);
                    self.delay_timer = Some(
                        ctx.set_timer(TimerSpan::Fixed(Millis(wait)), TimerKind::LockDelayOver),
                    );
                    return committed;
                }
                match self.after_a_key_went(ctx) {
                    Happening::Silent => committed,
                    next => next,
                }
            }
            Applied::Nothing => match self.answer_waiters(ctx) {
                Happening::Silent => committed,
                answered => answered,
            },
        }
    }
}
