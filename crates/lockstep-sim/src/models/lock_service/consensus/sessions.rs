//! Sessions (etcd's leases): kept alive by keepalives to the leader, expired by its clock, and an
//! expired one is gone. The leader appends an expiry; the lock-delay and the waiters that follow
//! it are `waiters.rs`.

use super::Replica;
use super::lock_state::Lease;
use super::lock_state::Lessor;
use super::raft_state::RaftRole;
use crate::models::lock_service::answers::renew_outcome;
use crate::vocabulary::happening::Happening;
use crate::vocabulary::message::Payload;
use crate::vocabulary::raft::Op;
use crate::vocabulary::timer::{TimerKind, TimerSpan};
use crate::world::ids::NodeId;
use crate::world::node::Ctx;
use crate::world::time::{LocalTime, Millis};
use crate::world::token::FencingToken;

impl Replica {
    /// The live lease, as this replica would answer for it: only a serving leader, out of any
    /// lock-delay, whose holder's session has not run out.
    pub fn live_lease(&self, now: LocalTime) -> Option<(NodeId, FencingToken)> {
        if !self.serving(now) || self.delayed(now) {
            return None;
        }
        let holder = self.table.holder()?;
        self.session_of(holder.client)
            .filter(|&until| until >= now)
            .map(|_| (holder.client, holder.revision))
    }

    /// When `client`'s session ends, if the leader keeps one for it.
    pub fn session_of(&self, client: NodeId) -> Option<LocalTime> {
        self.leases
            .iter()
            .find(|l| l.client == client)
            .map(|l| l.until)
    }

    /// Sets the session timer for the first session to run out, unless it is already set for
    /// it. Expiry is strict (`until < now`), so the timer fires one millisecond after `until`.
    pub(super) fn arm_sessions(&mut self, ctx: &mut Ctx<'_>) {
        let first = self.leases.iter().map(|l| l.until).min();
        if first.is_some() && self.session_timer.map(|(_, until)| until) == first {
            return;
        }
        if let Some((timer, _)) = self.session_timer.take() {
            ctx.cancel_timer(timer);
        }
        if let Some(until) = first {
            let left = u64::try_from(until.since(ctx.local)).unwrap_or(0);
            let timer = ctx.set_timer(TimerSpan::Fixed(Millis(left + 1)), TimerKind::LeaseExpiry);
            self.session_timer = Some((timer, until));
        }
    }

    /// Starts or extends `client`'s session to `ttl` from now.
    pub(super) fn keep_alive(&mut self, ctx: &mut Ctx<'_>, client: NodeId, ttl: Millis) {
        let until = ctx.local.after(ttl);
        match self.leases.iter_mut().find(|l| l.client == client) {
            Some(lease) => lease.until = until,
            None => self.leases.push(Lease { client, until }),
        }
        self.arm_sessions(ctx);
    }

    /// The session timer: the first session to run out is over, and the leader appends its
    /// expiry (its key goes with it).
    pub(super) fn on_session_timer(&mut self, ctx: &mut Ctx<'_>) -> Happening {
        self.session_timer = None;
        let now = ctx.local;
        let over = self
            .leases
            .iter()
            .filter(|l| l.until < now)
            .min_by_key(|l| l.until)
            .map(|l| l.client);
        let happening = match over {
            Some(client) if self.role == RaftRole::Leader => {
                // Expired means gone: the session ends now, and its key goes with it.
                self.leases.retain(|l| l.client != client);
                let token = self.revision_of(client);
                self.append(Op::Expire { client });
                self.replicate(
                    ctx,
                    Happening::LeaseExpired {
                        holder: client,
                        token,
                    },
                )
            }
            // The clock jumped back since the timer was set: by this clock the session
            // has time left; the timer is set again below.
            _ => Happening::Silent,
        };
        self.arm_sessions(ctx);
        happening
    }

    /// A keepalive (`Renew`) to a serving leader. It extends a session that has not run out; an
    /// expired one is gone ("lease not found"), even before the leader's expiry entry commits.
    pub(super) fn on_keepalive(
        &mut self,
        ctx: &mut Ctx<'_>,
        from: NodeId,
        token: Option<FencingToken>,
        ttl: Millis,
    ) -> Happening {
        let live = self
            .session_of(from)
            .is_some_and(|until| until >= ctx.local);
        ctx.send(from, Payload::RenewReply { renewed: live });
        let holder = self.table.holder().map(|k| k.client);
        if !live {
            return renew_outcome(from, token, ttl, false, holder);
        }
        self.keep_alive(ctx, from, ttl);
        let waiting = self.waiters.iter().any(|w| w.client == from);
        match self.table.holder() {
            Some(key) if key.client == from && !waiting => {
                renew_outcome(from, Some(key.revision), ttl, true, holder)
            }
            // A waiter's keepalive (its `Lock` call not answered yet, during a
            // lock-delay too): its key, and so its place in the queue, stays.
            _ => Happening::Silent,
        }
    }

    /// The teaching control: the holder's session ends now.
    pub fn force_expire(&mut self, ctx: &mut Ctx<'_>) -> Option<NodeId> {
        if self.role != RaftRole::Leader || self.lessor != Lessor::Primary {
            return None;
        }
        let holder = self.table.holder()?.client;
        self.leases.retain(|l| l.client != holder);
        self.append(Op::Expire { client: holder });
        self.replicate(ctx, Happening::Silent);
        self.arm_sessions(ctx);
        Some(holder)
    }
}
