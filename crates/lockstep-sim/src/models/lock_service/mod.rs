//! Lock services: who holds the lock, until when, and with which fencing token.
//!
//! A lock service answers `Acquire`, `Renew` and `Release` and decides expiry by its *own* clock.
//! It knows nothing about the resource the lock is meant to protect — which is the whole point of
//! the lesson: the service can be perfectly correct and a client can still act on a lease that has
//! expired. Each design lives in its own module; this one holds what they share: the node that
//! answers clients and announces expiry.

use crate::vocabulary::cache_entry::ReplicaWrite;
use crate::vocabulary::happening::Happening;
use crate::vocabulary::lock_value::LockValue;
use crate::vocabulary::message::{AcquireReply, Payload, ReleaseMethod};
use crate::vocabulary::timer::TimerKind;
use crate::vocabulary::timer::TimerSpan;
use crate::world::ids::{NodeId, TimerId};
use crate::world::node::{Ctx, ignored};
use crate::world::time::{LocalTime, Millis};
use crate::world::token::FencingToken;
use answers::{answer_sequencer, renew_outcome};

mod answers;
mod cache;
mod consensus;
mod grid;
mod replicated;
mod sql_row;
mod view;
#[cfg(test)]
mod view_tests;

pub use cache::{CacheLock, Persistence, TokenSource};
pub use consensus::{
    ConsensusConfig, KnownBug, Lease, LockTable, RaftRole, Replica, Waiter, Waiting,
};
pub use grid::GridMember;
pub use replicated::{Replicated, Role};
use serde::{Deserialize, Serialize};
pub use sql_row::SqlRow;
pub use view::{NodeRole, Record, Storage};

/// The lock service's design.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Backend {
    SqlRow(SqlRow),
    Cache(CacheLock),
    Replicated(Replicated),
    Grid(GridMember),
    Consensus(Replica),
}

/// A lock service node: a backend, plus the timer that announces the current lease's expiry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockService {
    pub backend: Backend,
    /// The one timer watching for the lease's expiry, and when (by this node's clock) it fires.
    /// It is not re-armed for every grant and renewal: when it fires it looks at `expiry_due`
    /// and, if a renewal moved the expiry on, waits again. That keeps the event queue small.
    expiry_timer: Option<(TimerId, LocalTime)>,
    /// When the current lease is over (`None`: no lease to watch).
    expiry_due: Option<LocalTime>,
    /// The SQL row keeps an expired lease in place until the next grant overwrites it: this
    /// remembers that its expiry was already announced, so a restart or a clock jump does not
    /// announce the same expiry twice. Keyed by token and expiry, because a renewal before the
    /// expiry moves it.
    announced: Option<(FencingToken, Option<LocalTime>)>,
}

impl LockService {
    pub fn new(backend: Backend) -> LockService {
        LockService {
            backend,
            expiry_timer: None,
            expiry_due: None,
            announced: None,
        }
    }

    /// Whether clients' requests for the lock service go to this node.
    pub fn is_front(&self) -> bool {
        match &self.backend {
            Backend::SqlRow(_) | Backend::Cache(_) => true,
            Backend::Replicated(node) => node.role == Role::Primary,
            Backend::Grid(_) => true,
            Backend::Consensus(replica) => replica.role == RaftRole::Leader,
        }
    }

    /// This node's part in its group: the one place a view reads it.
    pub fn role(&self) -> NodeRole {
        match &self.backend {
            Backend::SqlRow(_) | Backend::Cache(_) | Backend::Grid(_) => NodeRole::Alone,
            Backend::Replicated(node) => match node.role {
                Role::Primary => NodeRole::Primary,
                Role::Replica => NodeRole::Replica,
            },
            Backend::Consensus(replica) => {
                let term = replica.term;
                match replica.role {
                    RaftRole::Leader => NodeRole::Leader { term },
                    RaftRole::Follower => NodeRole::Follower { term },
                    RaftRole::Candidate => NodeRole::Candidate { term },
                }
            }
        }
    }

    /// What this node's own storage says about the lock at `local` (its own clock): the one
    /// place a view reads it. A cache key that has expired is gone; a row stays, marked not live.
    pub fn record(&self, local: LocalTime) -> Record {
        match &self.backend {
            Backend::SqlRow(row) => row.holder_id.map_or(Record::Empty, |holder| Record::Row {
                holder,
                token: row.fencing_token,
                live: row.live_holder(local).is_some(),
            }),
            Backend::Cache(cache)
            | Backend::Grid(GridMember { store: cache, .. })
            | Backend::Replicated(Replicated { store: cache, .. }) => cache
                .live_entry(local)
                .map_or(Record::Empty, |entry| Record::Key {
                    holder: entry.owner,
                    token: entry.token,
                }),
            Backend::Consensus(replica) => {
                replica
                    .table
                    .holder()
                    .map_or(Record::Empty, |key| Record::LowestKey {
                        holder: key.client,
                        revision: key.revision,
                    })
            }
        }
    }

    /// The rest of this node's storage at `local`, for the inspector's table: the one place it
    /// reads it.
    pub fn storage(&self, local: LocalTime) -> Storage<'_> {
        match &self.backend {
            Backend::SqlRow(row) => Storage::Row {
                lock_name: &row.lock_name,
                fencing_token: row.fencing_token,
                expires_at: row.expires_at,
            },
            Backend::Cache(cache)
            | Backend::Grid(GridMember { store: cache, .. })
            | Backend::Replicated(Replicated { store: cache, .. }) => Storage::Key {
                key: &cache.key,
                entry: cache.live_entry(local).map(|e| (e.value, e.expires_at)),
            },
            Backend::Consensus(replica) => Storage::Log {
                entries: replica.log.len(),
                committed: replica.commit,
                revision: replica.table.revision,
                waiting: replica.waiters.len(),
            },
        }
    }

    /// Who holds an unexpired lease now, by the service's clock, and with which token.
    pub fn live_lease(&self, now: LocalTime) -> Option<(NodeId, Option<FencingToken>)> {
        match &self.backend {
            Backend::SqlRow(row) => row.live_holder(now).map(|h| (h, Some(row.fencing_token))),
            Backend::Cache(cache)
            | Backend::Replicated(Replicated { store: cache, .. })
            | Backend::Grid(GridMember { store: cache, .. }) => {
                cache.live_entry(now).map(|e| (e.owner, e.token))
            }
            Backend::Consensus(replica) => replica
                .live_lease(now)
                .map(|(holder, revision)| (holder, Some(revision))),
        }
    }

    /// Whether this node is a consensus leader that answers for the lock now. Only consensus
    /// has a time when no node serves the lock and it is still held: between leaders.
    pub fn serving(&self, now: LocalTime) -> bool {
        match &self.backend {
            Backend::Consensus(replica) => replica.serving(now),
            Backend::SqlRow(_) | Backend::Cache(_) | Backend::Replicated(_) | Backend::Grid(_) => {
                false
            }
        }
    }

    /// The lease this node keeps without serving it: a consensus replica's committed lowest key
    /// (its holder and revision). Between leaders the lease lives on in the replicated log, and
    /// the next leader serves it again with a fresh TTL (S15). Other designs keep no lease they
    /// do not serve.
    pub fn stored_lease(&self, now: LocalTime) -> Option<(NodeId, FencingToken)> {
        match &self.backend {
            Backend::Consensus(replica) if !replica.serving(now) => {
                replica.table.holder().map(|key| (key.client, key.revision))
            }
            Backend::Consensus(_)
            | Backend::SqlRow(_)
            | Backend::Cache(_)
            | Backend::Replicated(_)
            | Backend::Grid(_) => None,
        }
    }

    /// Arms a node's first timers when the run begins (a consensus replica's heartbeat or
    /// election check); other designs wait for requests.
    pub fn start(&mut self, ctx: &mut Ctx<'_>) {
        if let Backend::Consensus(replica) = &mut self.backend {
            replica.start(ctx);
        }
    }

    /// How many unexpired leases the service holds for the lock, by its own clock.
    pub fn live_leases(&self, now: LocalTime) -> u32 {
        u32::from(self.live_lease(now).is_some())
    }

    /// Replaces the expiry announcement with one for a lease of `ttl` from now (or none).
    /// Expiry is strict (`expires_at < now`), so the lease is over one millisecond after it.
    fn watch_expiry(&mut self, ctx: &mut Ctx<'_>, ttl: Option<Millis>) {
        self.expiry_due = ttl.map(|ttl| ctx.local.after(Millis(ttl.0 + 1)));
        match (self.expiry_due, self.expiry_timer) {
            (Some(due), Some((timer, armed))) if armed > due => {
                ctx.cancel_timer(timer);
                self.arm_expiry(ctx, due);
            }
            (Some(due), None) => self.arm_expiry(ctx, due),
            _ => {}
        }
    }

    fn arm_expiry(&mut self, ctx: &mut Ctx<'_>, due: LocalTime) {
        let wait = Millis(u64::try_from(due.since(ctx.local)).unwrap_or(0));
        let timer = ctx.set_timer(TimerSpan::Fixed(wait), TimerKind::LeaseExpiry);
        self.expiry_timer = Some((timer, due));
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx<'_>, timer: TimerId, kind: TimerKind) -> Happening {
        if let Backend::Consensus(replica) = &mut self.backend {
            return replica.on_timer(ctx, timer, kind);
        }
        if let Backend::Replicated(node) = &mut self.backend
            && node.shipping == Some(timer)
        {
            node.shipping = None;
            ctx.send(node.peer, Payload::Replicate(node.snapshot()));
            return Happening::Shipped {
                node: ctx.me,
                to: node.peer,
                holder: node.store.entry.map(|e| e.owner),
            };
        }
        if self.expiry_timer.map(|(t, _)| t) != Some(timer) {
            return Happening::Silent;
        }
        self.expiry_timer = None;
        match self.expiry_due {
            None => return Happening::Silent,
            Some(due) if ctx.local < due => {
                self.arm_expiry(ctx, due);
                return Happening::Silent;
            }
            Some(_) => self.expiry_due = None,
        }
        let expired = match &mut self.backend {
            Backend::Consensus(_) => None,
            Backend::SqlRow(row) => row
                .holder_id
                .filter(|_| row.live_holder(ctx.local).is_none())
                .filter(|_| self.announced != Some((row.fencing_token, row.expires_at)))
                .map(|holder| {
                    self.announced = Some((row.fencing_token, row.expires_at));
                    (holder, Some(row.fencing_token))
                }),
            Backend::Cache(cache)
            | Backend::Grid(GridMember { store: cache, .. })
            | Backend::Replicated(Replicated {
                role: Role::Primary,
                store: cache,
                ..
            }) => match cache.entry {
                Some(entry) if cache.live_entry(ctx.local).is_none() => {
                    cache.entry = None;
                    Some((entry.owner, entry.token))
                }
                _ => None,
            },
            Backend::Replicated(_) => None,
        };
        match expired {
            Some((holder, token)) => Happening::LeaseExpired { holder, token },
            None => Happening::Ignored {
                node: ctx.me,
                message: None,
            },
        }
    }

    pub fn on_message(&mut self, ctx: &mut Ctx<'_>, from: NodeId, payload: Payload) -> Happening {
        if let Backend::Consensus(replica) = &mut self.backend {
            return replica.on_message(ctx, from, payload);
        }
        if let Backend::Grid(member) = &mut self.backend {
            if let Payload::Replicate(write) = payload {
                member.store.entry = write.entry;
                member.store.counter = write.counter;
                return Happening::Replicated {
                    node: ctx.me,
                    from,
                    holder: write.entry.map(|e| e.owner),
                };
            }
            let before = (member.store.entry, member.store.counter);
            let happening = self.answer(ctx, from, payload);
            if let Backend::Grid(member) = &self.backend
                && (member.store.entry, member.store.counter) != before
            {
                let write = ReplicaWrite {
                    entry: member.store.entry,
                    counter: member.store.counter,
                };
                // Tell every other member; the ones across a partition never hear of it.
                for peer in (0..member.members).map(|m| NodeId(u16::from(m))) {
                    if peer != ctx.me {
                        ctx.send(peer, Payload::Replicate(write));
                    }
                }
            }
            return happening;
        }
        let Backend::Replicated(node) = &mut self.backend else {
            return self.answer(ctx, from, payload);
        };
        match (node.role, payload) {
            (_, Payload::Replicate(write)) => {
                if node.apply(write) {
                    Happening::Replicated {
                        node: ctx.me,
                        from,
                        holder: write.entry.map(|e| e.owner),
                    }
                } else {
                    ignored(ctx)
                }
            }
            (Role::Replica, _) => ignored(ctx),
            (Role::Primary, request) => {
                let before = node.snapshot();
                let happening = self.answer(ctx, from, request);
                if let Backend::Replicated(node) = &mut self.backend
                    && node.snapshot() != before
                    && node.shipping.is_none()
                {
                    node.shipping =
                        Some(ctx.set_timer(TimerSpan::Fixed(node.lag), TimerKind::Ship));
                }
                happening
            }
        }
    }

    /// Answers a client's request from this node's own store.
    fn answer(&mut self, ctx: &mut Ctx<'_>, from: NodeId, payload: Payload) -> Happening {
        let now = ctx.local;
        match payload {
            Payload::Acquire { ttl, value } => self.answer_acquire(ctx, from, ttl, value),
            Payload::Renew { token, value, ttl } => self.answer_renew(ctx, from, token, value, ttl),
            Payload::Release {
                token,
                value,
                method,
            } => self.answer_release(ctx, from, token, value, method),
            Payload::CheckSequencer { writer, token } => {
                let valid = self.live_lease(now) == Some((writer, Some(token)));
                answer_sequencer(ctx, from, writer, token, valid)
            }
            _ => ignored(ctx),
        }
    }

    /// `Acquire`: granted with a token (and the expiry watched), or refused naming the holder.
    fn answer_acquire(
        &mut self,
        ctx: &mut Ctx<'_>,
        from: NodeId,
        ttl: Millis,
        value: LockValue,
    ) -> Happening {
        let now = ctx.local;
        let outcome = match &mut self.backend {
            Backend::SqlRow(row) => row.acquire(now, from, ttl).map(Some),
            // A replica answers through its own log (see `on_message`).
            Backend::Consensus(_) => Err(None),
            Backend::Cache(cache)
            | Backend::Replicated(Replicated { store: cache, .. })
            | Backend::Grid(GridMember { store: cache, .. }) => {
                cache.acquire(now, from, ttl, value)
            }
        };
        match outcome {
            Ok(token) => {
                self.watch_expiry(ctx, Some(ttl));
                ctx.send(
                    from,
                    Payload::AcquireReply {
                        value,
                        reply: AcquireReply::Granted { token },
                    },
                );
                Happening::Granted {
                    client: from,
                    token,
                    ttl,
                }
            }
            Err(holder) => {
                ctx.send(
                    from,
                    Payload::AcquireReply {
                        value,
                        reply: AcquireReply::HeldElsewhere,
                    },
                );
                Happening::Refused {
                    client: from,
                    holder,
                }
            }
        }
    }

    /// `Renew`: extended only for the current holder (and the expiry watched again).
    fn answer_renew(
        &mut self,
        ctx: &mut Ctx<'_>,
        from: NodeId,
        token: Option<FencingToken>,
        value: LockValue,
        ttl: Millis,
    ) -> Happening {
        let now = ctx.local;
        let renewed = match &mut self.backend {
            Backend::SqlRow(row) => row.renew(now, from, token, ttl),
            Backend::Consensus(_) => false,
            Backend::Cache(cache)
            | Backend::Replicated(Replicated { store: cache, .. })
            | Backend::Grid(GridMember { store: cache, .. }) => cache.renew(now, value, ttl),
        };
        if renewed {
            self.watch_expiry(ctx, Some(ttl));
        }
        ctx.send(from, Payload::RenewReply { renewed });
        renew_outcome(
            from,
            token,
            ttl,
            renewed,
            self.live_lease(now).map(|(h, _)| h),
        )
    }

    /// `Release`: removed by the holder, by another client whose release the design does not
    /// check, or refused.
    fn answer_release(
        &mut self,
        ctx: &mut Ctx<'_>,
        from: NodeId,
        token: Option<FencingToken>,
        value: LockValue,
        method: ReleaseMethod,
    ) -> Happening {
        let now = ctx.local;
        let removed = match &mut self.backend {
            Backend::SqlRow(row) => row.release(from, token, method),
            Backend::Consensus(_) => None,
            Backend::Cache(cache)
            | Backend::Replicated(Replicated { store: cache, .. })
            | Backend::Grid(GridMember { store: cache, .. }) => cache.release(now, value, method),
        };
        ctx.send(
            from,
            Payload::ReleaseReply {
                released: removed.is_some(),
            },
        );
        match removed {
            Some(owner) => {
                self.watch_expiry(ctx, None);
                if owner == from {
                    Happening::Released {
                        client: from,
                        token,
                    }
                } else {
                    Happening::ReleasedOthersLock {
                        client: from,
                        owner,
                    }
                }
            }
            None => Happening::ReleaseRefused {
                client: from,
                token,
                holder: self.live_lease(now).map(|(h, _)| h),
            },
        }
    }

    /// The process dies: a cache loses what it had not persisted (a database keeps its rows).
    /// Returns whose lock was lost.
    pub fn crash(&mut self, now: LocalTime) -> Option<NodeId> {
        self.expiry_timer = None;
        self.expiry_due = None;
        match &mut self.backend {
            Backend::Cache(cache) => cache.crash(now),
            Backend::SqlRow(_)
            | Backend::Replicated(_)
            | Backend::Grid(_)
            | Backend::Consensus(_) => None,
        }
    }

    /// How long this node stays down after a crash before it may restart.
    pub fn restart_delay(&self) -> Millis {
        match &self.backend {
            Backend::Cache(cache) => cache.restart_delay,
            Backend::SqlRow(_)
            | Backend::Replicated(_)
            | Backend::Grid(_)
            | Backend::Consensus(_) => Millis(0),
        }
    }

    /// Sentinel's decision, applied to this node: it becomes the primary or a replica. A new
    /// primary starts announcing its lease's expiry, as after a restart.
    pub fn set_role(&mut self, ctx: &mut Ctx<'_>, role: Role) {
        if let Backend::Replicated(node) = &mut self.backend {
            node.role = role;
        }
        match role {
            Role::Primary => self.restart(ctx),
            Role::Replica => {
                if let Some((timer, _)) = self.expiry_timer.take() {
                    ctx.cancel_timer(timer);
                }
                self.expiry_due = None;
                if let Backend::Replicated(node) = &mut self.backend
                    && let Some(timer) = node.shipping.take()
                {
                    ctx.cancel_timer(timer);
                }
            }
        }
    }

    /// After a crash the stored state is back but the expiry announcement was lost with the
    /// process: announce the lease's expiry again.
    pub fn restart(&mut self, ctx: &mut Ctx<'_>) {
        if let Backend::Consensus(replica) = &mut self.backend {
            replica.restart(ctx);
            return;
        }
        self.rearm_expiry(ctx);
    }

    /// Announces the current lease's expiry afresh, by the node's clock as it reads now (after a
    /// restart, a promotion, or a clock jump that moved the expiry closer or further away). A
    /// lease already past its expiry is announced at once.
    pub fn rearm_expiry(&mut self, ctx: &mut Ctx<'_>) {
        let expires_at = match &self.backend {
            Backend::SqlRow(row) => row
                .holder_id
                .filter(|_| self.announced != Some((row.fencing_token, row.expires_at)))
                .and(row.expires_at),
            Backend::Cache(cache)
            | Backend::Grid(GridMember { store: cache, .. })
            | Backend::Replicated(Replicated {
                role: Role::Primary,
                store: cache,
                ..
            }) => cache.entry.map(|e| e.expires_at),
            Backend::Replicated(_) | Backend::Consensus(_) => None,
        };
        // The clock may have jumped since the timer was set: always set it afresh here.
        if let Some((timer, _)) = self.expiry_timer.take() {
            ctx.cancel_timer(timer);
        }
        match expires_at {
            Some(expires_at) => {
                let left = u64::try_from(expires_at.since(ctx.local)).unwrap_or(0);
                self.watch_expiry(ctx, Some(Millis(left)));
            }
            None => self.watch_expiry(ctx, None),
        }
    }

    /// Ends the current lease now; returns whose lease it was. The pending expiry announcement
    /// becomes moot: the forced expiry is its own event.
    pub fn force_expire(&mut self, ctx: &mut Ctx<'_>) -> Option<NodeId> {
        let now = ctx.local;
        let holder = match &mut self.backend {
            Backend::Consensus(replica) => replica.force_expire(ctx),
            Backend::SqlRow(row) => {
                let holder = row.force_expire(now);
                if holder.is_some() {
                    self.announced = Some((row.fencing_token, row.expires_at));
                }
                holder
            }
            Backend::Cache(cache)
            | Backend::Replicated(Replicated { store: cache, .. })
            | Backend::Grid(GridMember { store: cache, .. }) => cache.force_expire(now),
        };
        if holder.is_some() {
            self.expiry_due = None;
        }
        holder
    }
}
