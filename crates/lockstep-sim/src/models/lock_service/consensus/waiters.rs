//! Waiting for the lock: `Lock` calls not answered yet, answered in revision order once no lower
//! key is left (or, with the etcd 3.4.x bug, without checking the waiter's own key); the herd of
//! watchers woken at once; the lock-delay after a failed holder.

use super::Replica;
use super::config::KnownBug;
use super::lock_state::Lessor;
use super::lock_state::Waiter;
use crate::vocabulary::happening::Happening;
use crate::vocabulary::lock_value::LockValue;
use crate::vocabulary::message::{AcquireReply, Payload};
use crate::world::ids::NodeId;
use crate::world::node::Ctx;
use crate::world::time::LocalTime;
use crate::world::token::FencingToken;

impl Replica {
    pub(super) fn delayed(&self, now: LocalTime) -> bool {
        self.delay_until.is_some_and(|until| now < until)
    }

    /// Records `client`'s `Lock` call as unanswered; a call asking again replaces its earlier
    /// attempt.
    pub(super) fn await_turn(&mut self, client: NodeId, value: LockValue, revision: FencingToken) {
        let waiter = Waiter {
            client,
            value,
            revision,
        };
        match self.waiters.iter_mut().find(|w| w.client == client) {
            Some(place) => *place = waiter,
            None => self.waiters.push(waiter),
        }
    }

    /// `client` waits: how many keys are ahead of it, not counting the holder's.
    pub(super) fn queued(&self, ctx: &Ctx<'_>, client: NodeId) -> Happening {
        let revision = self.revision_of(client).unwrap_or_default();
        let lower = self
            .table
            .keys
            .iter()
            .filter(|k| k.revision < revision)
            .count();
        let delayed = self.delayed(ctx.local);
        let ahead = if delayed {
            lower
        } else {
            lower.saturating_sub(1)
        };
        Happening::Queued {
            node: ctx.me,
            client,
            ahead: u32::try_from(ahead).unwrap_or(u32::MAX),
            until: if delayed { self.delay_until } else { None },
        }
    }

    /// A key went (released, expired) or a lock-delay ended: answer the waiters whose turn has
    /// come, or, in herd mode, wake every watcher if the lock is free.
    pub(super) fn after_a_key_went(&mut self, ctx: &mut Ctx<'_>) -> Happening {
        let answered = self.answer_waiters(ctx);
        if answered != Happening::Silent {
            return answered;
        }
        let free = self.table.keys.is_empty() && self.pending_keys().next().is_none();
        if self.lessor != Lessor::Primary
            || !free
            || self.delayed(ctx.local)
            || self.watchers.is_empty()
        {
            return Happening::Silent;
        }
        let woken = std::mem::take(&mut self.watchers);
        for &client in &woken {
            ctx.send(client, Payload::LockFreed);
        }
        Happening::HerdWoken {
            node: ctx.me,
            woken: u32::try_from(woken.len()).unwrap_or(u32::MAX),
        }
    }

    /// Answers every `Lock` call whose turn has come: no key with a lower revision is left, and
    /// its own key has committed or gone. A waiter whose key is there holds the lock and is told
    /// so with its key's revision. One whose key went with its expired session is told its
    /// session expired — or, with the etcd 3.4.x bug, that it holds the lock, with the revision
    /// of the key it no longer has. Returns the most telling of the answers.
    pub(super) fn answer_waiters(&mut self, ctx: &mut Ctx<'_>) -> Happening {
        // Only a leader that has heard from a majority lately answers from its state: one
        // that was paused or cut off may have been deposed without knowing it.
        if !self.serving(ctx.local) || self.delayed(ctx.local) {
            return Happening::Silent;
        }
        let mut told = (0, Happening::Silent);
        let mut i = 0;
        while i < self.waiters.len() {
            let waiter = self.waiters[i];
            let blocked = self.table.keys.iter().any(|k| k.revision < waiter.revision)
                || self.pending_keys().any(|(_, r)| r <= waiter.revision);
            if blocked {
                i += 1;
                continue;
            }
            self.waiters.remove(i);
            let own = self
                .table
                .keys
                .iter()
                .copied()
                .find(|k| k.client == waiter.client && k.revision == waiter.revision);
            let (rank, reply, happening) = match own {
                Some(key) => (
                    1,
                    AcquireReply::Granted {
                        token: Some(key.revision),
                    },
                    Happening::Granted {
                        client: waiter.client,
                        token: Some(key.revision),
                        ttl: key.ttl,
                    },
                ),
                None if self.config.bug == KnownBug::Etcd343 => (
                    3,
                    AcquireReply::Granted {
                        token: Some(waiter.revision),
                    },
                    Happening::GrantedWithoutLease {
                        node: ctx.me,
                        client: waiter.client,
                        token: waiter.revision,
                    },
                ),
                None => (
                    2,
                    AcquireReply::SessionExpired,
                    Happening::WaiterExpired {
                        node: ctx.me,
                        client: waiter.client,
                    },
                ),
            };
            let answer = Payload::AcquireReply {
                value: waiter.value,
                reply,
            };
            ctx.send(waiter.client, answer);
            if rank > told.0 {
                told = (rank, happening);
            }
        }
        told.1
    }
}
