//! A consensus-replicated lock service (etcd, ZooKeeper, Chubby, Consul): 3 or 5 replicas that
//! agree on one log, modelled at the level a learner needs — a small Raft.
//!
//! - A grant is acknowledged only once a majority of replicas has it in its log, so a new leader
//!   always has every acknowledged grant: failover costs an election's unavailability, never
//!   the lock (S15).
//! - The lock is etcd's (`clientv3/concurrency` `Mutex`, the server's `v3lock`): every contender
//!   puts its own key, whose create revision is its fencing token; the key with the lowest
//!   revision holds the lock, and the others wait for every lower key to go (a fair queue).
//!   Revisions never go backwards and no two keys share one.
//! - Each key lives as long as its client's lease (session), kept alive by keepalives
//!   (renewals) to the leader; when they stop, the leader expires the lease, which deletes the
//!   key and frees the lock if it held it (S14) — after a lock-delay, if one is set and the
//!   holder failed rather than released (S13). An expired lease is gone: a late keepalive is
//!   refused.
//! - A waiter's `Lock` call is answered when no lower key is left. The fixed server first checks
//!   that the waiter's own key is still there; etcd 3.4.x did not (fixed in 3.5.0), and told a
//!   waiter whose key had gone with its lease that it holds the lock (S18, etcd issue #11456).
//!
//! - A new leader answers for the lock only once an entry of its own term has committed (Raft §8:
//!   its no-op; etcd promotes its lessor when it applies it): until then its state may still show
//!   a key whose release or expiry sits, stored but not committed, in its log. Then every session
//!   starts afresh with its full TTL (Consul's reset; etcd adds an election timeout).
//! - A replica that heard from its leader less than an election timeout ago ignores calls for an
//!   election (Raft thesis §4.2.3, etcd's check-quorum), and a leader counts only acks to
//!   heartbeats it sent less than an election timeout ago. Together they keep an old leader from
//!   answering for the lock once a new one can: no two leaders serve at once — as long as the
//!   replicas' clocks run at about the same rate (Raft §8: leases "rely on timing for safety"). A
//!   wall-clock step does not touch it (leases and elections run on a monotonic clock); a wrong
//!   rate is outside it. This is stricter than etcd, whose lessor allows two primaries for up to
//!   an election timeout (the `isPrimary` comment in `server/lease/lessor.go`).
//!
//! What it leaves out: membership changes, snapshots, read indexes, pre-vote, and etcd's
//! revisions for deletions (here only keys take a revision, so tokens count 1, 2, 3). A leader
//! steps down when it has not heard from a majority for an election timeout ("check quorum"), so
//! a deposed leader cannot keep serving. Followers reset their election timer only when they
//! hear from a current leader or grant a vote (Raft §5.2), so a cut-off replica that keeps
//! calling elections it cannot win does not keep the others from electing a leader.
//!
//! Raft and the lock, one concept per file. Raft: `log.rs` (appending, a follower's check, the
//! commit rule), `election.rs` (terms, votes, becoming leader), `replication.rs` (appends,
//! heartbeats, acks, the quorum), `commit.rs` (applying committed entries to the lock: the seam).
//! The lock: `keys.rs`, `lessor.rs` (serving yet?), `sessions.rs` (keepalives, expiry),
//! `waiters.rs` (the queue, the herd, the lock-delay), `calls.rs` (`Lock`, `Release`, answers).
//! Their plain values live in `raft_state.rs` and `lock_state.rs`, so that every file imports
//! `Replica` and those values and nothing imports back. This file holds `Replica` and routes
//! each message and timer to the file that handles it.

use crate::models::lock_service::answers::answer_sequencer;
use crate::vocabulary::happening::Happening;
use crate::vocabulary::message::Payload;
use crate::vocabulary::raft::{Entry, RaftMessage};
use crate::vocabulary::timer::TimerKind;
use crate::world::ids::{NodeId, TimerId};
use crate::world::node::{Ctx, ignored};
use crate::world::time::LocalTime;
use raft_state::AppendAt;
use serde::{Deserialize, Serialize};

mod calls;
mod commit;
mod config;
mod election;
mod keys;
mod lessor;
mod lock_state;
mod log;
mod raft_state;
mod replication;
mod sessions;
mod waiters;

#[cfg(test)]
mod tests;

pub use config::{ConsensusConfig, KnownBug, Waiting};
pub use lock_state::{Lease, Lessor, LockTable, Waiter};
pub use raft_state::RaftRole;

/// One replica.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replica {
    pub me: u8,
    pub config: ConsensusConfig,
    pub role: RaftRole,
    pub lessor: Lessor,
    pub term: u32,
    pub voted_for: Option<NodeId>,
    pub votes: u8,
    pub log: Vec<Entry>,
    /// How many entries are committed (and applied to `table`).
    pub commit: u32,
    pub table: LockTable,
    /// Leader only: how much of the log each replica is known to have.
    pub matched: Vec<u32>,
    /// Leader only: the next entry to send each replica.
    pub next: Vec<u32>,
    /// Leader only: when each replica last answered (by the leader's clock).
    pub heard_from: Vec<LocalTime>,
    /// Follower: when it last heard from a leader or granted a vote.
    pub last_heard: LocalTime,
    /// When it last heard from the leader of its term (none since its term changed).
    pub leader_seen: Option<LocalTime>,
    /// Leader only: the session of every client with a key, committed or on its way.
    pub leases: Vec<Lease>,
    /// Leader only: no grant before this time (the lock-delay after a failed holder).
    pub delay_until: Option<LocalTime>,
    pub waiters: Vec<Waiter>,
    /// Herd mode: the clients watching the lock for its release.
    pub watchers: Vec<NodeId>,
    heartbeat_timer: Option<TimerId>,
    election_timer: Option<TimerId>,
    /// The timer for the first session to run out, and that session's end.
    session_timer: Option<(TimerId, LocalTime)>,
    delay_timer: Option<TimerId>,
}

impl Replica {
    pub fn new(me: u8, config: ConsensusConfig) -> Replica {
        let n = usize::from(config.replicas);
        Replica {
            me,
            config,
            // Replica 1 starts as the leader of term 1, as if an election had just been won.
            role: if me == 0 {
                RaftRole::Leader
            } else {
                RaftRole::Follower
            },
            // ... and as if its first entry had committed: the log starts empty.
            lessor: if me == 0 {
                Lessor::Primary
            } else {
                Lessor::Standby
            },
            term: 1,
            voted_for: None,
            votes: 0,
            log: Vec::new(),
            commit: 0,
            table: LockTable::default(),
            matched: vec![0; n],
            next: vec![1; n],
            heard_from: vec![LocalTime(0); n],
            last_heard: LocalTime(0),
            leader_seen: None,
            leases: Vec::new(),
            delay_until: None,
            waiters: Vec::new(),
            watchers: Vec::new(),
            heartbeat_timer: None,
            election_timer: None,
            session_timer: None,
            delay_timer: None,
        }
    }
}

/// The replica as a node: where each message and timer goes.
impl Replica {
    fn node(index: u8) -> NodeId {
        NodeId(u16::from(index))
    }

    pub(super) fn others(&self) -> impl Iterator<Item = u8> + use<> {
        let me = self.me;
        (0..self.config.replicas).filter(move |&r| r != me)
    }

    /// Arms the first timers: a leader's heartbeat, a follower's election check.
    pub fn start(&mut self, ctx: &mut Ctx<'_>) {
        self.last_heard = ctx.local;
        self.heard_from = vec![ctx.local; usize::from(self.config.replicas)];
        match self.role {
            RaftRole::Leader => self.arm_heartbeat(ctx),
            RaftRole::Follower | RaftRole::Candidate => self.arm_election_check(ctx),
        }
    }

    /// After a crash: the log and term were on disk; everything else starts afresh.
    pub fn restart(&mut self, ctx: &mut Ctx<'_>) {
        self.step_down(self.term);
        self.heartbeat_timer = None;
        self.election_timer = None;
        self.session_timer = None;
        self.delay_timer = None;
        self.start(ctx);
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx<'_>, timer: TimerId, kind: TimerKind) -> Happening {
        match kind {
            TimerKind::Heartbeat if self.heartbeat_timer == Some(timer) => self.on_heartbeat(ctx),
            TimerKind::ElectionCheck if self.election_timer == Some(timer) => {
                self.on_election_check(ctx)
            }
            TimerKind::LeaseExpiry if self.session_timer.map(|(t, _)| t) == Some(timer) => {
                self.on_session_timer(ctx)
            }
            TimerKind::LockDelayOver if self.delay_timer == Some(timer) => {
                self.delay_timer = None;
                self.after_a_key_went(ctx)
            }
            _ => Happening::Silent,
        }
    }

    pub fn on_message(&mut self, ctx: &mut Ctx<'_>, from: NodeId, payload: Payload) -> Happening {
        let me = ctx.me;
        match payload {
            Payload::Raft(message) => self.on_raft(ctx, from, message),
            Payload::CheckSequencer { writer, token } => {
                // Only a leader with a quorum can vouch; anyone else says no, to be safe.
                let valid = self.live_lease(ctx.local) == Some((writer, token));
                answer_sequencer(ctx, from, writer, token, valid)
            }
            Payload::Acquire { .. } | Payload::Renew { .. } | Payload::Release { .. }
                if self.role != RaftRole::Leader =>
            {
                ctx.send(from, Payload::NotLeader);
                Happening::NotLeader {
                    node: me,
                    client: from,
                }
            }
            Payload::Renew { .. } | Payload::Release { .. } if self.lessor == Lessor::Standby => {
                // Its state may still show a session a stored entry ended: no answer is safe.
                Happening::NotServingYet {
                    node: me,
                    client: from,
                }
            }
            Payload::Acquire { ttl, value } => self.on_acquire(ctx, from, ttl, value),
            Payload::Renew { token, ttl, .. } => self.on_keepalive(ctx, from, token, ttl),
            Payload::Release { token, .. } => self.on_release(ctx, from, token),
            _ => ignored(ctx),
        }
    }

    pub(super) fn on_raft(
        &mut self,
        ctx: &mut Ctx<'_>,
        from: NodeId,
        message: RaftMessage,
    ) -> Happening {
        match message {
            RaftMessage::Append {
                term,
                index,
                prev_term,
                entry,
                commit,
                sent,
            } => self.on_append(
                ctx,
                from,
                term,
                AppendAt {
                    index,
                    prev_term,
                    entry,
                    commit,
                    sent,
                },
            ),
            RaftMessage::Ack {
                term,
                matched,
                ok,
                sent,
            } => self.on_ack(ctx, from, term, matched, ok, sent),
            RaftMessage::Vote { term, .. } if term > self.term && self.in_lease(ctx.local) => {
                self.withhold_vote(ctx, from, term)
            }
            RaftMessage::Vote {
                term,
                last_index,
                last_term,
            } => self.on_vote(ctx, from, term, last_index, last_term),
            RaftMessage::VoteReply { term, granted } => self.on_vote_reply(ctx, term, granted),
        }
    }
}
