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
//!   that the waiter's own key is still there; etcd 3.4.3 did not, and told a waiter whose key
//!   had gone with its lease that it holds the lock (S18, etcd issue #11456).
//!
//! - A new leader answers for the lock only once an entry of its own term has committed (Raft §8:
//!   its no-op; etcd promotes its lessor when it applies it): until then its state may still show
//!   a key whose release or expiry sits, stored but not committed, in its log. Then every session
//!   starts afresh with its full TTL.
//! - A replica that heard from its leader less than an election timeout ago ignores calls for an
//!   election (Raft thesis §4.2.3, etcd's check-quorum), and a leader counts only acks to
//!   heartbeats it sent less than an election timeout ago. Together they keep an old leader from
//!   answering for the lock once a new one can: no two leaders serve at once — as long as the
//!   replicas' clocks run at about the same rate (Raft §8: leases "rely on timing for safety"). A
//!   clock jump is outside that promise.
//!
//! What it leaves out: membership changes, snapshots, read indexes, pre-vote, and etcd's
//! revisions for deletions (here only keys take a revision, so tokens count 1, 2, 3). A leader
//! steps down when it has not heard from a majority for an election timeout ("check quorum"), so
//! a deposed leader cannot keep serving. Followers reset their election timer only when they
//! hear from a current leader or grant a vote (Raft §5.2), so a cut-off replica that keeps
//! calling elections it cannot win does not keep the others from electing a leader.

use crate::vocabulary::happening::{Happening, StepDown, Withheld};
use crate::vocabulary::lock_value::LockValue;
use crate::vocabulary::message::{AcquireReply, Payload};
use crate::vocabulary::raft::Entry;
use crate::vocabulary::raft::LockKey;
use crate::vocabulary::raft::Op;
use crate::vocabulary::raft::RaftMessage;
use crate::vocabulary::timer::TimerKind;
use crate::vocabulary::timer::TimerSpan;
use crate::world::ids::{NodeId, TimerId};
use crate::world::node::{Ctx, ignored};
use crate::world::time::{LocalTime, Millis};
use crate::world::token::FencingToken;
use serde::{Deserialize, Serialize};

/// Where an append sits in the leader's log, and how far the leader has committed: the fields
/// of [`RaftMessage::Append`] besides its term.
#[derive(Clone, Copy, Debug)]
struct AppendAt {
    index: u32,
    prev_term: u32,
    entry: Option<Entry>,
    commit: u32,
    sent: LocalTime,
}

/// Where a replica stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RaftRole {
    Leader,
    Follower,
    Candidate,
}

/// The lock as the committed log says it is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockTable {
    /// Every contender's key, lowest revision first: the first one holds the lock.
    pub keys: Vec<LockKey>,
    /// The highest revision ever given to a key.
    pub revision: FencingToken,
}

impl LockTable {
    /// The key that holds the lock: the one with the lowest revision.
    pub fn holder(&self) -> Option<LockKey> {
        self.keys.first().copied()
    }

    pub fn key_of(&self, client: NodeId) -> Option<LockKey> {
        self.keys.iter().copied().find(|k| k.client == client)
    }
}

/// Settings shared by every replica.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsensusConfig {
    pub replicas: u8,
    pub heartbeat: Millis,
    pub election_timeout: Millis,
    pub lock_delay: Millis,
    pub waiters: Waiting,
    pub bug: KnownBug,
}

/// How clients wait for a taken lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Waiting {
    /// In a queue, each granted in turn: a release wakes exactly one (the ZooKeeper recipe,
    /// where each waiter watches its predecessor).
    FairQueue,
    /// Everyone watches the lock; a release wakes them all and they all ask again at once (the
    /// herd effect).
    Herd,
}

/// A historical bug the service can reproduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KnownBug {
    None,
    /// etcd 3.4.3: when a waiter's turn comes, the server tells it that it holds the lock
    /// without checking that its key still exists, so a waiter whose lease expired while it
    /// waited is told it holds the lock, with its own key's revision (etcd issue #11456, fixed
    /// by PR #11408).
    #[serde(rename = "etcd_3_4_3")]
    Etcd343,
}

/// Whether a leader answers for the lock yet (etcd's lessor: primary once promoted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lessor {
    /// Not a leader, or a leader whose first entry has not committed: it keeps no sessions and
    /// answers no `Lock` call.
    Standby,
    /// A leader whose own entry has committed: it keeps sessions and answers for the lock.
    Primary,
}

/// A client's `Lock` call the leader has not answered yet: it waits for every key below its own
/// (`revision`) to go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiter {
    pub client: NodeId,
    pub value: LockValue,
    pub revision: FencingToken,
}

/// A client's session (etcd's lease), as the leader keeps it: over once `until` is past.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lease {
    pub client: NodeId,
    pub until: LocalTime,
}

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

/// What a follower did with an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acceptance {
    Stored,
    AlreadyHad,
    Refused,
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

    pub fn majority(&self) -> u8 {
        self.config.replicas / 2 + 1
    }

    pub fn last_index(&self) -> u32 {
        u32::try_from(self.log.len()).unwrap_or(u32::MAX)
    }

    pub fn term_at(&self, index: u32) -> u32 {
        index
            .checked_sub(1)
            .and_then(|i| self.log.get(i as usize))
            .map_or(0, |e| e.term)
    }

    /// Whether this leader has heard from a majority (itself included) within an election
    /// timeout: only such a leader may answer as the service. Strictly within: a follower that
    /// answered a heartbeat sent at `t` may vote for another replica from `t` + the election
    /// timeout on.
    pub fn has_quorum(&self, now: LocalTime) -> bool {
        if self.role != RaftRole::Leader {
            return false;
        }
        let fresh = (0..self.config.replicas)
            .filter(|&r| {
                r == self.me
                    || now.since(self.heard_from[usize::from(r)])
                        < self.config.election_timeout.as_i64()
            })
            .count();
        fresh >= usize::from(self.majority())
    }

    /// Whether this replica answers for the lock now: a promoted leader with a quorum.
    pub fn serving(&self, now: LocalTime) -> bool {
        self.lessor == Lessor::Primary && self.has_quorum(now)
    }

    /// Whether it must not help elect another leader: it leads with a quorum, or it heard from
    /// its leader less than an election timeout ago.
    fn in_lease(&self, now: LocalTime) -> bool {
        match self.role {
            RaftRole::Leader => self.has_quorum(now),
            RaftRole::Follower => self
                .leader_seen
                .is_some_and(|seen| now.since(seen) < self.config.election_timeout.as_i64()),
            RaftRole::Candidate => false,
        }
    }

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

    fn delayed(&self, now: LocalTime) -> bool {
        self.delay_until.is_some_and(|until| now < until)
    }

    /// The keys on their way through the log (put, not yet committed).
    fn pending_keys(&self) -> impl Iterator<Item = (NodeId, FencingToken)> + '_ {
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
    fn revision_of(&self, client: NodeId) -> Option<FencingToken> {
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

    pub fn append(&mut self, op: Op) -> u32 {
        self.log.push(Entry {
            term: self.term,
            op,
        });
        let index = self.last_index();
        self.matched[usize::from(self.me)] = index;
        index
    }

    /// Becomes a follower of a higher term.
    pub fn step_down(&mut self, term: u32) {
        self.role = RaftRole::Follower;
        self.lessor = Lessor::Standby;
        if term > self.term {
            self.term = term;
            self.voted_for = None;
            self.leader_seen = None;
        }
        self.votes = 0;
        self.leases.clear();
        self.waiters.clear();
        self.watchers.clear();
    }

    /// A follower takes the entry at `index`, if its log agrees with the leader's up to there.
    pub fn accept(&mut self, index: u32, prev_term: u32, entry: Entry) -> Acceptance {
        if index == 0 || index > self.last_index() + 1 || self.term_at(index - 1) != prev_term {
            return Acceptance::Refused;
        }
        if self.log.get(index as usize - 1) == Some(&entry) {
            return Acceptance::AlreadyHad;
        }
        self.log.truncate(index as usize - 1);
        self.log.push(entry);
        Acceptance::Stored
    }

    /// Whether a candidate's log is at least as up to date as ours (Raft's election rule).
    pub fn candidate_is_current(&self, last_index: u32, last_term: u32) -> bool {
        let mine = self.term_at(self.last_index());
        last_term > mine || (last_term == mine && last_index >= self.last_index())
    }

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

    /// The leader's commit rule: the highest index of its own term that a majority has.
    pub fn majority_index(&self) -> u32 {
        let mut matched = self.matched.clone();
        matched.sort_unstable_by(|a, b| b.cmp(a));
        let candidate = matched
            .get(usize::from(self.majority()) - 1)
            .copied()
            .unwrap_or(0);
        if self.term_at(candidate) == self.term {
            candidate
        } else {
            self.commit
        }
    }
}

/// The replica as a node: what it does with each message and timer.
impl Replica {
    fn node(index: u8) -> NodeId {
        NodeId(u16::from(index))
    }

    fn others(&self) -> impl Iterator<Item = u8> + use<> {
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

    fn arm_heartbeat(&mut self, ctx: &mut Ctx<'_>) {
        self.heartbeat_timer = Some(ctx.set_timer(
            TimerSpan::Fixed(self.config.heartbeat),
            TimerKind::Heartbeat,
        ));
    }

    /// Followers wait a little longer the higher their number, so that one of them, not all at
    /// once, calls the election (Raft randomises this; a fixed stagger keeps runs readable).
    fn arm_election_check(&mut self, ctx: &mut Ctx<'_>) {
        let wait = self.config.election_timeout.0 + u64::from(self.me) * self.config.heartbeat.0;
        self.election_timer =
            Some(ctx.set_timer(TimerSpan::Fixed(Millis(wait)), TimerKind::ElectionCheck));
    }

    /// Becomes a follower of `term` on hearing of it from a replica that is not (yet) its
    /// leader: a vote request or an answer. The election timer keeps running — only a current
    /// leader or a granted vote resets it (Raft §5.2) — and a former leader starts one.
    fn follow_term(&mut self, ctx: &mut Ctx<'_>, term: u32) {
        self.step_down(term);
        if self.election_timer.is_none() {
            self.arm_election_check(ctx);
        }
    }

    /// Sets the session timer for the first session to run out, unless it is already set for
    /// it. Expiry is strict (`until < now`), so the timer fires one millisecond after `until`.
    fn arm_sessions(&mut self, ctx: &mut Ctx<'_>) {
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
    fn keep_alive(&mut self, ctx: &mut Ctx<'_>, client: NodeId, ttl: Millis) {
        let until = ctx.local.after(ttl);
        match self.leases.iter_mut().find(|l| l.client == client) {
            Some(lease) => lease.until = until,
            None => self.leases.push(Lease { client, until }),
        }
        self.arm_sessions(ctx);
    }

    /// Sends follower `to` the next entry it lacks, or a heartbeat.
    fn send_append(&self, ctx: &mut Ctx<'_>, to: u8) {
        let next = self.next[usize::from(to)].max(1);
        let entry = (next <= self.last_index()).then(|| self.log[next as usize - 1]);
        let message = RaftMessage::Append {
            term: self.term,
            // A heartbeat still names its place, so that the follower can check that its log
            // matches the leader's before it takes the leader's commit point.
            index: next,
            prev_term: self.term_at(next - 1),
            entry,
            commit: self.commit,
            sent: ctx.local,
        };
        ctx.send(Replica::node(to), Payload::Raft(message));
    }

    fn broadcast_appends(&self, ctx: &mut Ctx<'_>) {
        for to in self.others() {
            self.send_append(ctx, to);
        }
    }

    /// Becomes the leader of its term: it appends its no-op and serves nothing until that
    /// commits (`promote`), since its state may still show what a stored entry undid.
    fn lead(&mut self, ctx: &mut Ctx<'_>) {
        self.role = RaftRole::Leader;
        self.lessor = Lessor::Standby;
        self.leader_seen = None;
        self.matched = vec![0; usize::from(self.config.replicas)];
        self.heard_from = vec![ctx.local; usize::from(self.config.replicas)];
        self.leases.clear();
        if let Some((timer, _)) = self.session_timer.take() {
            ctx.cancel_timer(timer);
        }
        // A `Lock` call outlives a change of leader (etcd's server waits on the store, not on
        // one leader): every key behind the first is a waiter nobody has answered yet, to be
        // answered once the leader serves. Whether the first key's client was told is unknown
        // here; it asks again if it was not.
        self.waiters = self
            .keys()
            .into_iter()
            .skip(1)
            .map(|k| Waiter {
                client: k.client,
                value: k.value,
                revision: k.revision,
            })
            .collect();
        let noop = self.append(Op::Noop);
        // Start optimistic: send each follower the new entry; one that lacks earlier ones says
        // so, and the leader backs up.
        self.next = vec![noop; usize::from(self.config.replicas)];
        self.arm_heartbeat(ctx);
        self.replicate(ctx, Happening::Silent);
    }

    /// Every key, committed or on its way through the log, lowest revision first.
    fn keys(&self) -> Vec<LockKey> {
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

    /// The leader's own entry has committed: it starts answering for the lock from what the
    /// log says. Sessions survive the change of leader: every key's client gets a full TTL
    /// from now (etcd's `Promote` renews every lease).
    fn promote(&mut self, ctx: &mut Ctx<'_>) {
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

    /// Appends a client's `op` and replicates it: an `Appended` event, or what committing it at
    /// once led to.
    fn append_and_replicate(&mut self, ctx: &mut Ctx<'_>, op: Op) -> Happening {
        let index = self.append(op);
        let appended = Happening::Appended {
            node: ctx.me,
            index,
            op,
        };
        self.replicate(ctx, appended)
    }

    /// Sends what it just appended to the followers; a replica that is a majority alone (one
    /// replica) commits it at once. Returns what committing led to, or `appended`.
    fn replicate(&mut self, ctx: &mut Ctx<'_>, appended: Happening) -> Happening {
        self.broadcast_appends(ctx);
        if self.majority() > 1 {
            return appended;
        }
        match self.advance_commit(ctx) {
            Happening::Silent | Happening::Committed { .. } => appended,
            told => told,
        }
    }

    /// Commits what a majority has (entries of its own term only, Raft §5.4.2), promotes the
    /// leader when its first entry commits, and answers clients.
    fn advance_commit(&mut self, ctx: &mut Ctx<'_>) -> Happening {
        let target = self.majority_index();
        if target <= self.commit {
            // An ack may have given the leader back its quorum.
            return self.answer_waiters(ctx);
        }
        let applied = self.commit_to(target, ctx.local);
        let promoted = self.lessor == Lessor::Standby;
        if promoted {
            self.promote(ctx);
        }
        // Keys an earlier leader put, learnt only now, have sessions to watch.
        self.arm_sessions(ctx);
        match self.answer(ctx, applied, target) {
            Happening::Committed { .. } if promoted => Happening::Serving {
                node: ctx.me,
                term: self.term,
            },
            other => other,
        }
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx<'_>, timer: TimerId, kind: TimerKind) -> Happening {
        let me = ctx.me;
        match kind {
            TimerKind::Heartbeat if self.heartbeat_timer == Some(timer) => {
                if self.role != RaftRole::Leader {
                    // It stopped leading since the timer was set, and said so then.
                    self.heartbeat_timer = None;
                    return Happening::Silent;
                }
                if !self.has_quorum(ctx.local) {
                    let term = self.term;
                    self.heartbeat_timer = None;
                    self.follow_term(ctx, term);
                    return Happening::SteppedDown {
                        node: me,
                        term,
                        why: StepDown::LostQuorum,
                    };
                }
                self.broadcast_appends(ctx);
                self.arm_heartbeat(ctx);
                Happening::Silent
            }
            TimerKind::ElectionCheck if self.election_timer == Some(timer) => {
                let quiet_for = ctx.local.since(self.last_heard);
                let timeout = self.config.election_timeout.as_i64()
                    + i64::from(self.me) * self.config.heartbeat.as_i64();
                if self.role == RaftRole::Leader || quiet_for < timeout {
                    self.arm_election_check(ctx);
                    return Happening::Silent;
                }
                self.term += 1;
                self.role = RaftRole::Candidate;
                self.leader_seen = None;
                self.voted_for = Some(me);
                self.votes = 1;
                self.last_heard = ctx.local;
                let vote = RaftMessage::Vote {
                    term: self.term,
                    last_index: self.last_index(),
                    last_term: self.term_at(self.last_index()),
                };
                for to in self.others() {
                    ctx.send(Replica::node(to), Payload::Raft(vote));
                }
                self.arm_election_check(ctx);
                if self.votes >= self.majority() {
                    self.lead(ctx);
                    return Happening::BecameLeader {
                        node: me,
                        term: self.term,
                    };
                }
                Happening::ElectionStarted {
                    node: me,
                    term: self.term,
                }
            }
            TimerKind::LeaseExpiry if self.session_timer.map(|(t, _)| t) == Some(timer) => {
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
                super::answers::answer_sequencer(ctx, from, writer, token, valid)
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
            Payload::Renew { token, ttl, .. } => {
                // A keepalive extends a session that has not run out; an expired one is gone
                // ("lease not found"), even before the leader's expiry entry commits.
                let live = self
                    .session_of(from)
                    .is_some_and(|until| until >= ctx.local);
                ctx.send(from, Payload::RenewReply { renewed: live });
                let holder = self.table.holder().map(|k| k.client);
                if !live {
                    return super::answers::renew_outcome(from, token, ttl, false, holder);
                }
                self.keep_alive(ctx, from, ttl);
                let waiting = self.waiters.iter().any(|w| w.client == from);
                match self.table.holder() {
                    Some(key) if key.client == from && !waiting => {
                        super::answers::renew_outcome(from, Some(key.revision), ttl, true, holder)
                    }
                    // A waiter's keepalive (its `Lock` call not answered yet, during a
                    // lock-delay too): its key, and so its place in the queue, stays.
                    _ => Happening::Silent,
                }
            }
            Payload::Release { token, .. } => {
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
            _ => ignored(ctx),
        }
    }

    /// A client's `Lock` call: it puts its key (etcd reuses the key of a session that asks
    /// again, so its revision and place stay), then waits until no lower key is left.
    fn on_acquire(
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

    /// Records `client`'s `Lock` call as unanswered; a call asking again replaces its earlier
    /// attempt.
    fn await_turn(&mut self, client: NodeId, value: LockValue, revision: FencingToken) {
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
    fn queued(&self, ctx: &Ctx<'_>, client: NodeId) -> Happening {
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

    fn on_raft(&mut self, ctx: &mut Ctx<'_>, from: NodeId, message: RaftMessage) -> Happening {
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
                // Unanswered, as etcd does: the candidate's term is not taken up either.
                Happening::VoteWithheld {
                    node: ctx.me,
                    candidate: from,
                    term,
                    why: if self.role == RaftRole::Leader {
                        Withheld::Leading
                    } else {
                        Withheld::LeaderHeard
                    },
                }
            }
            RaftMessage::Vote {
                term,
                last_index,
                last_term,
            } => self.on_vote(ctx, from, term, last_index, last_term),
            RaftMessage::VoteReply { term, granted } => self.on_vote_reply(ctx, term, granted),
        }
    }

    /// Raft's rule for every message (§5.1): a later term than ours means a later election, so
    /// take up its term and follow. Says whether this replica was leading before.
    fn take_later_term(&mut self, ctx: &mut Ctx<'_>, term: u32) -> bool {
        let was_leader = self.role == RaftRole::Leader;
        if term > self.term {
            self.follow_term(ctx, term);
        }
        was_leader
    }

    /// An answer (an ack or a vote reply) from a later term: this replica follows that term, and
    /// has nothing more to do with the answer.
    fn answered_from_later_term(&mut self, ctx: &mut Ctx<'_>, term: u32) -> Option<Happening> {
        if term <= self.term {
            return None;
        }
        let was_leader = self.take_later_term(ctx, term);
        Some(if was_leader {
            self.stepped_down(ctx.me)
        } else {
            Happening::Silent
        })
    }

    /// What a leader that a later term deposed reports.
    fn stepped_down(&self, me: NodeId) -> Happening {
        Happening::SteppedDown {
            node: me,
            term: self.term,
            why: StepDown::LaterTerm,
        }
    }

    /// A leader's append or heartbeat. A current leader's word also deposes a candidate or a
    /// leader of the same term, and resets the election timer (Raft §5.2).
    fn on_append(&mut self, ctx: &mut Ctx<'_>, from: NodeId, term: u32, at: AppendAt) -> Happening {
        let AppendAt {
            index,
            prev_term,
            entry,
            commit,
            sent,
        } = at;
        if term < self.term {
            let ack = RaftMessage::Ack {
                term: self.term,
                matched: 0,
                ok: false,
                sent,
            };
            ctx.send(from, Payload::Raft(ack));
            return Happening::Silent;
        }
        let was_leader = self.role == RaftRole::Leader;
        if term > self.term || self.role != RaftRole::Follower {
            self.step_down(term);
            self.arm_election_check(ctx);
        }
        self.last_heard = ctx.local;
        self.leader_seen = Some(ctx.local);
        let (acceptance, verified) = match entry {
            Some(entry) => {
                let acceptance = self.accept(index, prev_term, entry);
                let verified = if acceptance == Acceptance::Refused {
                    self.commit
                } else {
                    index
                };
                (acceptance, verified)
            }
            None => {
                // Only a log that matches the leader's up to `index - 1` may commit that
                // far; otherwise an entry the leader never had could be applied.
                let matches = index >= 1
                    && index - 1 <= self.last_index()
                    && self.term_at(index - 1) == prev_term;
                let verified = if matches { index - 1 } else { self.commit };
                (Acceptance::AlreadyHad, verified)
            }
        };
        let ok = acceptance != Acceptance::Refused;
        let before = self.commit;
        self.commit_to(commit.min(verified), ctx.local);
        let ack = RaftMessage::Ack {
            term: self.term,
            matched: if entry.is_some() { verified } else { 0 },
            ok,
            sent,
        };
        ctx.send(from, Payload::Raft(ack));
        if was_leader {
            return self.stepped_down(ctx.me);
        }
        match acceptance {
            Acceptance::Stored => Happening::Stored {
                node: ctx.me,
                index,
                leader: from,
            },
            _ if self.commit > before => Happening::Committed {
                node: ctx.me,
                index: self.commit,
            },
            _ => Happening::Silent,
        }
    }

    /// A follower's answer to an append: how much of the log it has.
    fn on_ack(
        &mut self,
        ctx: &mut Ctx<'_>,
        from: NodeId,
        term: u32,
        matched: u32,
        ok: bool,
        sent: LocalTime,
    ) -> Happening {
        if let Some(happening) = self.answered_from_later_term(ctx, term) {
            return happening;
        }
        if self.role != RaftRole::Leader || term < self.term {
            return Happening::Silent;
        }
        let follower = usize::from(u8::try_from(from.0).unwrap_or(u8::MAX));
        if follower >= self.matched.len() {
            return Happening::Silent;
        }
        // Heard from as of when the leader asked (Raft §8: a leader confirms it has not
        // been deposed by a round of heartbeats; an answer held up by a pause is old).
        self.heard_from[follower] = self.heard_from[follower].max(sent);
        if ok {
            self.matched[follower] = self.matched[follower].max(matched);
            self.next[follower] = self.next[follower].max(self.matched[follower] + 1);
        } else {
            // It lacks earlier entries: back up towards what it has committed.
            let back = self.next[follower].saturating_sub(1).min(matched + 1);
            self.next[follower] = back.max(1);
        }
        self.advance_commit(ctx)
    }

    /// A candidate asks for this replica's vote.
    fn on_vote(
        &mut self,
        ctx: &mut Ctx<'_>,
        from: NodeId,
        term: u32,
        last_index: u32,
        last_term: u32,
    ) -> Happening {
        let was_leader = self.take_later_term(ctx, term);
        let granted = term == self.term
            && self.voted_for.is_none_or(|v| v == from)
            && self.candidate_is_current(last_index, last_term);
        if granted {
            self.voted_for = Some(from);
            self.last_heard = ctx.local;
        }
        let reply = RaftMessage::VoteReply {
            term: self.term,
            granted,
        };
        ctx.send(from, Payload::Raft(reply));
        if was_leader && self.role != RaftRole::Leader {
            return self.stepped_down(ctx.me);
        }
        Happening::Voted {
            node: ctx.me,
            candidate: from,
            term,
            granted,
        }
    }

    /// A replica's answer to this candidate's vote request.
    fn on_vote_reply(&mut self, ctx: &mut Ctx<'_>, term: u32, granted: bool) -> Happening {
        if let Some(happening) = self.answered_from_later_term(ctx, term) {
            return happening;
        }
        if self.role != RaftRole::Candidate || term != self.term || !granted {
            return Happening::Silent;
        }
        self.votes += 1;
        if self.votes < self.majority() {
            return Happening::Silent;
        }
        self.lead(ctx);
        Happening::BecameLeader {
            node: ctx.me,
            term: self.term,
        }
    }

    /// The leader has committed entries: answer the `Lock` calls whose turn has come, wake a
    /// herd, or say what the entry did.
    fn answer(&mut self, ctx: &mut Ctx<'_>, applied: Applied, index: u32) -> Happening {
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

    /// A key went (released, expired) or a lock-delay ended: answer the waiters whose turn has
    /// come, or, in herd mode, wake every watcher if the lock is free.
    fn after_a_key_went(&mut self, ctx: &mut Ctx<'_>) -> Happening {
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
    /// session expired — or, with the etcd 3.4.3 bug, that it holds the lock, with the revision
    /// of the key it no longer has. Returns the most telling of the answers.
    fn answer_waiters(&mut self, ctx: &mut Ctx<'_>) -> Happening {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> ConsensusConfig {
        ConsensusConfig {
            replicas: 3,
            heartbeat: Millis(100),
            election_timeout: Millis(500),
            lock_delay: Millis(0),
            waiters: Waiting::FairQueue,
            bug: KnownBug::None,
        }
    }

    fn grant(client: u16, revision: u64) -> Op {
        Op::Grant {
            client: NodeId(client),
            value: LockValue(1),
            revision: FencingToken(revision),
            ttl: Millis(1000),
        }
    }

    #[test]
    fn an_entry_commits_only_with_a_majority() {
        let mut leader = Replica::new(0, config());
        let index = leader.append(grant(4, 1));
        assert_eq!(leader.majority_index(), 0, "only the leader has it");
        leader.matched[1] = index;
        assert_eq!(leader.majority_index(), index);
        assert_eq!(
            leader.commit_to(index, LocalTime(0)),
            Applied::Put { client: NodeId(4) }
        );
        assert_eq!(
            leader.table.holder(),
            Some(LockKey {
                client: NodeId(4),
                value: LockValue(1),
                revision: FencingToken(1),
                ttl: Millis(1000)
            })
        );
    }

    #[test]
    fn revisions_continue_past_uncommitted_grants() {
        let mut leader = Replica::new(0, config());
        leader.append(grant(4, 1));
        assert_eq!(leader.next_revision(), FencingToken(2));
    }

    #[test]
    fn a_follower_refuses_an_entry_that_does_not_follow_its_log() {
        let mut follower = Replica::new(1, config());
        let entry = Entry {
            term: 1,
            op: Op::Noop,
        };
        assert_eq!(follower.accept(2, 1, entry), Acceptance::Refused, "a gap");
        assert_eq!(follower.accept(1, 0, entry), Acceptance::Stored);
        assert_eq!(follower.accept(1, 0, entry), Acceptance::AlreadyHad);
        assert_eq!(
            follower.accept(2, 7, entry),
            Acceptance::Refused,
            "the previous term differs"
        );
        let second = Entry {
            term: 2,
            op: Op::Noop,
        };
        assert_eq!(follower.accept(2, 1, second), Acceptance::Stored);
        let conflicting = Entry {
            term: 3,
            op: Op::Noop,
        };
        assert_eq!(
            follower.accept(2, 1, conflicting),
            Acceptance::Stored,
            "a conflict is replaced"
        );
        assert_eq!(follower.log.len(), 2);
    }

    #[test]
    fn only_an_up_to_date_candidate_gets_a_vote() {
        let mut voter = Replica::new(1, config());
        voter.log.push(Entry {
            term: 2,
            op: Op::Noop,
        });
        assert!(
            !voter.candidate_is_current(5, 1),
            "an older last term loses"
        );
        assert!(voter.candidate_is_current(1, 2));
        assert!(voter.candidate_is_current(1, 3));
    }

    #[test]
    fn a_leader_without_a_quorum_answers_for_no_lease() {
        let mut leader = Replica::new(0, config());
        leader.table.keys.push(LockKey {
            client: NodeId(4),
            value: LockValue(1),
            revision: FencingToken(1),
            ttl: Millis(1000),
        });
        leader.leases.push(Lease {
            client: NodeId(4),
            until: LocalTime(10_000),
        });
        leader.heard_from[1] = LocalTime(100);
        assert!(leader.live_lease(LocalTime(200)).is_some());
        assert!(
            leader.live_lease(LocalTime(1_000)).is_none(),
            "no follower heard from for too long"
        );
    }

    /// A leader paused for seconds finds its followers' acks waiting when it resumes. They
    /// answer heartbeats it sent before the pause, so they must not make it look confirmed now:
    /// it counts a follower as heard from when it asked (Raft §8), and only a round it starts
    /// after the pause can give it back its quorum.
    #[test]
    fn an_ack_held_up_by_a_pause_does_not_confirm_the_leader() {
        let ack_at = |sent: i64| {
            let mut leader = Replica::new(0, config());
            leader.role = RaftRole::Leader;
            leader.term = 2;
            leader.table.keys.push(LockKey {
                client: NodeId(4),
                value: LockValue(1),
                revision: FencingToken(1),
                ttl: Millis(10_000),
            });
            leader.leases.push(Lease {
                client: NodeId(4),
                until: LocalTime(20_000),
            });
            let (mut commands, mut next_timer) = (Vec::new(), 0);
            let resumed = LocalTime(3_000);
            let mut ctx = Ctx::new(
                crate::world::time::VirtualTime(3_000),
                resumed,
                NodeId(0),
                None,
                &mut commands,
                &mut next_timer,
            );
            let ack = RaftMessage::Ack {
                term: 2,
                matched: 0,
                ok: true,
                sent: LocalTime(sent),
            };
            leader.on_raft(&mut ctx, NodeId(1), ack);
            (leader.heard_from[1], leader.live_lease(resumed))
        };
        let (heard, lease) = ack_at(100);
        assert_eq!(
            heard,
            LocalTime(100),
            "heard from as of the heartbeat it answers"
        );
        assert_eq!(
            lease, None,
            "an answer to a heartbeat from before the pause"
        );
        let (heard, lease) = ack_at(2_990);
        assert_eq!(heard, LocalTime(2_990));
        assert_eq!(
            lease,
            Some((NodeId(4), FencingToken(1))),
            "a fresh round confirms it"
        );
    }

    /// Runs `act` on `replica` at local time `at` (true time the same); returns what it sent.
    fn at<T>(
        replica: &mut Replica,
        at: i64,
        act: impl FnOnce(&mut Replica, &mut Ctx<'_>) -> T,
    ) -> (T, Vec<crate::world::node::Command>) {
        let (mut commands, mut next_timer) = (Vec::new(), 0);
        let mut ctx = Ctx::new(
            crate::world::time::VirtualTime(u64::try_from(at).unwrap_or(0)),
            LocalTime(at),
            Replica::node(replica.me),
            None,
            &mut commands,
            &mut next_timer,
        );
        let result = act(replica, &mut ctx);
        (result, commands)
    }

    fn told_a_grant(commands: &[crate::world::node::Command]) -> bool {
        commands.iter().any(|c| {
            matches!(
                c,
                crate::world::node::Command::Send {
                    payload: Payload::AcquireReply {
                        reply: AcquireReply::Granted { .. },
                        ..
                    },
                    ..
                }
            )
        })
    }

    /// etcd-3 (replica 2) has stored client 4's grant and its release, and client 5's waiting
    /// key, but learnt only that the grant committed: its state still shows client 4 holding.
    fn a_replica_with_a_revocation_not_committed() -> Replica {
        let mut replica = Replica::new(2, config());
        for op in [
            grant(4, 1),
            Op::Wait {
                client: NodeId(5),
                value: LockValue(1),
                revision: FencingToken(2),
                ttl: Millis(1000),
            },
            Op::Release { client: NodeId(4) },
        ] {
            replica.log.push(Entry { term: 1, op });
        }
        replica.commit_to(2, LocalTime(0));
        replica
    }

    /// A new leader before its first commit: its state shows client 4's key, whose release it
    /// stored but has not seen committed. It must answer for no lease, tell nobody they hold the
    /// lock and leave keepalives unanswered — until its own entry commits, when the release is
    /// applied and client 5, next in the queue, is told.
    #[test]
    fn a_new_leader_serves_only_once_its_own_entry_commits() {
        let mut leader = a_replica_with_a_revocation_not_committed();
        assert_eq!(leader.table.holder().map(|k| k.client), Some(NodeId(4)));
        leader.term = 2;
        at(&mut leader, 1_000, |r, ctx| r.lead(ctx));
        assert_eq!(leader.live_lease(LocalTime(1_001)), None, "not serving yet");
        let (happening, sent) = at(&mut leader, 1_001, |r, ctx| {
            r.on_message(
                ctx,
                NodeId(4),
                Payload::Acquire {
                    ttl: Millis(1000),
                    value: LockValue(2),
                },
            )
        });
        assert!(
            !told_a_grant(&sent),
            "{happening:?}: no grant from a stale state"
        );
        let (happening, sent) = at(&mut leader, 1_001, |r, ctx| {
            r.on_message(
                ctx,
                NodeId(4),
                Payload::Renew {
                    token: Some(FencingToken(1)),
                    ttl: Millis(1000),
                    value: LockValue(1),
                },
            )
        });
        assert!(matches!(happening, Happening::NotServingYet { .. }));
        assert!(sent.is_empty(), "a keepalive is left unanswered");

        let noop = leader.last_index();
        let ack = RaftMessage::Ack {
            term: 2,
            matched: noop,
            ok: true,
            sent: LocalTime(1_000),
        };
        let (happening, sent) = at(&mut leader, 1_004, |r, ctx| r.on_raft(ctx, NodeId(1), ack));
        assert_eq!(leader.lessor, Lessor::Primary, "{happening:?}");
        assert!(
            leader.table.key_of(NodeId(4)).is_none(),
            "the release is applied"
        );
        assert!(
            told_a_grant(&sent),
            "client 5's turn has come: {happening:?}"
        );
        assert_eq!(
            leader.live_lease(LocalTime(1_005)),
            Some((NodeId(5), FencingToken(2)))
        );
    }

    /// A follower that heard from its leader less than an election timeout ago does not vote
    /// for another replica, nor take up its term: the leader may still be answering for the
    /// lock. From an election timeout on, it votes.
    #[test]
    fn a_follower_that_hears_its_leader_withholds_its_vote() {
        let vote = RaftMessage::Vote {
            term: 2,
            last_index: 0,
            last_term: 0,
        };
        let mut follower = Replica::new(1, config());
        follower.leader_seen = Some(LocalTime(1_000));
        let (happening, sent) = at(&mut follower, 1_499, |r, ctx| {
            r.on_raft(ctx, NodeId(2), vote)
        });
        assert!(matches!(happening, Happening::VoteWithheld { .. }));
        assert!(sent.is_empty());
        assert_eq!(follower.term, 1);
        let (happening, _) = at(&mut follower, 1_500, |r, ctx| {
            r.on_raft(ctx, NodeId(2), vote)
        });
        assert!(
            matches!(happening, Happening::Voted { granted: true, .. }),
            "{happening:?}"
        );
    }

    /// The leader's side of the same bound: an ack to a heartbeat sent an election timeout ago
    /// no longer counts, since its sender may vote for another replica from then on.
    #[test]
    fn an_ack_an_election_timeout_old_confirms_nothing() {
        let mut leader = Replica::new(0, config());
        leader.heard_from = vec![LocalTime(1_000); 3];
        assert!(leader.has_quorum(LocalTime(1_499)));
        assert!(!leader.has_quorum(LocalTime(1_500)));
    }

    /// A service of one replica is its own majority: what its leader appends commits at once.
    #[test]
    fn a_single_replica_commits_alone() {
        let mut leader = Replica::new(
            0,
            ConsensusConfig {
                replicas: 1,
                ..config()
            },
        );
        let (_, sent) = at(&mut leader, 0, |r, ctx| {
            r.on_message(
                ctx,
                NodeId(4),
                Payload::Acquire {
                    ttl: Millis(1000),
                    value: LockValue(1),
                },
            )
        });
        assert!(told_a_grant(&sent));
        assert_eq!(leader.commit, 1);
    }
}
