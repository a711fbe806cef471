//! A consensus-replicated lock service (etcd, ZooKeeper, Chubby, Consul): 3 or 5 replicas that
//! agree on one log, modelled at the level a learner needs — a small Raft.
//!
//! - A grant is acknowledged only once a majority of replicas has it in its log, so a new leader
//!   always has every acknowledged grant: failover costs an election's unavailability, never
//!   the lock (S15).
//! - The fencing token is the log's revision counter, which never goes backwards.
//! - Clients keep their session alive with keepalives (renewals) to the leader; when they stop,
//!   the leader expires the session and frees the lock (S14) — after a lock-delay, if one is set
//!   and the holder failed rather than released (S13).
//! - Clients that find the lock taken wait in a fair queue and are granted it in turn.
//!
//! What it leaves out: membership changes, snapshots, read indexes, pre-vote. A leader steps
//! down when it has not heard from a majority for an election timeout ("check quorum"), so a
//! deposed leader cannot keep serving.

use crate::happening::Happening;
use crate::ids::{NodeId, TimerId};
use crate::message::LockValue;
use crate::message::{AcquireReply, Payload};
use crate::node::{Ctx, TimerKind, TimerSpan, ignored};
use crate::time::{LocalTime, Millis};
use crate::token::FencingToken;
use serde::{Deserialize, Serialize};

/// What one log entry does to the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "op")]
pub enum Op {
    /// A new leader's first entry, which lets it commit what earlier leaders left.
    Noop,
    Grant {
        client: NodeId,
        value: LockValue,
        revision: FencingToken,
        ttl: Millis,
    },
    Release {
        client: NodeId,
    },
    /// The holder's session expired: it stopped sending keepalives.
    Expire {
        client: NodeId,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub term: u32,
    pub op: Op,
}

/// What the replicas say to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "raft")]
pub enum RaftMessage {
    /// Leader → follower: the entry at `index` (1-based; `None` for a heartbeat, where `index`
    /// is where the leader's next entry would go), the term of the entry before it, and how far
    /// the log is committed.
    Append {
        term: u32,
        index: u32,
        prev_term: u32,
        entry: Option<Entry>,
        commit: u32,
    },
    /// Follower → leader: how much of the leader's log it now has (`ok` false: it refused).
    Ack {
        term: u32,
        matched: u32,
        ok: bool,
    },
    /// Candidate → everyone: vote for me in `term`; my log ends at `last_index` / `last_term`.
    Vote {
        term: u32,
        last_index: u32,
        last_term: u32,
    },
    VoteReply {
        term: u32,
        granted: bool,
    },
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockTable {
    /// The holder, its revision (the fencing token) and its session's TTL.
    pub holder: Option<(NodeId, FencingToken, Millis)>,
    pub revision: FencingToken,
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
    /// etcd 3.4.3: a waiter whose lease expired while it waited is told it holds the lock,
    /// without the server re-checking the lease (etcd issue #11456, fixed by PR #11408).
    #[serde(rename = "etcd_3_4_3")]
    Etcd343,
}

/// A client waiting in the fair queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiter {
    pub client: NodeId,
    pub value: LockValue,
    pub ttl: Millis,
    /// When the waiter's own session runs out if nothing renews it while it waits.
    pub session_until: LocalTime,
}

/// One replica.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replica {
    pub me: u8,
    pub config: ConsensusConfig,
    pub role: RaftRole,
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
    /// Leader only: when the holder's session runs out.
    pub session_until: Option<LocalTime>,
    /// Leader only: no grant before this time (the lock-delay after a failed holder).
    pub delay_until: Option<LocalTime>,
    pub waiters: Vec<Waiter>,
    /// Herd mode: the clients watching the lock for its release.
    pub watchers: Vec<NodeId>,
    heartbeat_timer: Option<TimerId>,
    election_timer: Option<TimerId>,
    session_timer: Option<TimerId>,
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
    Granted {
        client: NodeId,
        value: LockValue,
        revision: FencingToken,
        ttl: Millis,
    },
    Released {
        client: NodeId,
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
            session_until: None,
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
    /// timeout: only such a leader may answer as the service.
    pub fn has_quorum(&self, now: LocalTime) -> bool {
        if self.role != RaftRole::Leader {
            return false;
        }
        let fresh = (0..self.config.replicas)
            .filter(|&r| {
                r == self.me
                    || now.since(self.heard_from[usize::from(r)])
                        <= self.config.election_timeout.as_i64()
            })
            .count();
        fresh >= usize::from(self.majority())
    }

    /// The live lease, as this replica would answer for it: only a leader with a quorum.
    pub fn live_lease(&self, now: LocalTime) -> Option<(NodeId, FencingToken)> {
        if !self.has_quorum(now) {
            return None;
        }
        let (holder, revision, _) = self.table.holder?;
        self.session_until
            .filter(|&until| until >= now)
            .map(|_| (holder, revision))
    }

    /// The revision the next grant gets: one past every grant in the log, committed or not.
    pub fn next_revision(&self) -> FencingToken {
        let logged = self.log.iter().filter_map(|e| match e.op {
            Op::Grant { revision, .. } => Some(revision),
            _ => None,
        });
        logged.fold(self.table.revision, FencingToken::max).next()
    }

    /// Whether a grant is already on its way through the log.
    pub fn grant_pending(&self) -> bool {
        self.log[self.commit as usize..]
            .iter()
            .any(|e| matches!(e.op, Op::Grant { .. }))
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
        if term > self.term {
            self.term = term;
            self.voted_for = None;
        }
        self.votes = 0;
        self.session_until = None;
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
                    value,
                    revision,
                    ttl,
                } => {
                    self.table.holder = Some((client, revision, ttl));
                    self.table.revision = self.table.revision.max(revision);
                    if self.role == RaftRole::Leader {
                        self.session_until = Some(now.after(ttl));
                    }
                    Applied::Granted {
                        client,
                        value,
                        revision,
                        ttl,
                    }
                }
                Op::Release { client } => {
                    if self.table.holder.is_some_and(|(h, _, _)| h == client) {
                        self.table.holder = None;
                        self.session_until = None;
                    }
                    Applied::Released { client }
                }
                Op::Expire { client } => {
                    if self.table.holder.is_some_and(|(h, _, _)| h == client) {
                        self.table.holder = None;
                        self.session_until = None;
                        if self.role == RaftRole::Leader && self.config.lock_delay.0 > 0 {
                            self.delay_until = Some(now.after(self.config.lock_delay));
                        }
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

    fn arm_session(&mut self, ctx: &mut Ctx<'_>, ttl: Millis) {
        if let Some(timer) = self.session_timer.take() {
            ctx.cancel_timer(timer);
        }
        self.session_timer =
            Some(ctx.set_timer(TimerSpan::Fixed(Millis(ttl.0 + 1)), TimerKind::LeaseExpiry));
    }

    /// Sets the session timer for whatever remains of the holder's session, by this replica's
    /// clock.
    fn arm_session_remaining(&mut self, ctx: &mut Ctx<'_>) {
        if let Some(until) = self.session_until {
            let left = u64::try_from(until.since(ctx.local)).unwrap_or(0);
            self.arm_session(ctx, Millis(left));
        }
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
        };
        ctx.send(Replica::node(to), Payload::Raft(message));
    }

    fn broadcast_appends(&self, ctx: &mut Ctx<'_>) {
        for to in self.others() {
            self.send_append(ctx, to);
        }
    }

    fn lead(&mut self, ctx: &mut Ctx<'_>) {
        self.role = RaftRole::Leader;
        self.matched = vec![0; usize::from(self.config.replicas)];
        self.heard_from = vec![ctx.local; usize::from(self.config.replicas)];
        let noop = self.append(Op::Noop);
        // Start optimistic: send each follower the new entry; one that lacks earlier ones says
        // so, and the leader backs up.
        self.next = vec![noop; usize::from(self.config.replicas)];
        // Sessions survive the change of leader: the new one gives the holder a full TTL.
        if let Some((_, _, ttl)) = self.table.holder {
            self.session_until = Some(ctx.local.after(ttl));
            self.arm_session(ctx, ttl);
        } else if let Some(timer) = self.session_timer.take() {
            // A timer from an earlier leadership would stand in for the one a holder learned
            // later needs.
            ctx.cancel_timer(timer);
        }
        self.broadcast_appends(ctx);
        self.arm_heartbeat(ctx);
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx<'_>, timer: TimerId, kind: TimerKind) -> Happening {
        let me = ctx.me;
        match kind {
            TimerKind::Heartbeat if self.heartbeat_timer == Some(timer) => {
                if !self.has_quorum(ctx.local) {
                    let term = self.term;
                    self.step_down(term);
                    self.arm_election_check(ctx);
                    return Happening::SteppedDown { node: me, term };
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
            TimerKind::LeaseExpiry if self.session_timer == Some(timer) => {
                self.session_timer = None;
                match (self.role, self.table.holder, self.session_until) {
                    (RaftRole::Leader, Some((holder, revision, _)), Some(until))
                        if until < ctx.local =>
                    {
                        self.append(Op::Expire { client: holder });
                        self.broadcast_appends(ctx);
                        Happening::LeaseExpired {
                            holder,
                            token: Some(revision),
                        }
                    }
                    (RaftRole::Leader, Some(_), Some(_)) => {
                        // The clock jumped back since the timer was set: by this clock the
                        // session has time left, and nothing else would end it.
                        self.arm_session_remaining(ctx);
                        Happening::Silent
                    }
                    _ => Happening::Silent,
                }
            }
            TimerKind::LockDelayOver if self.delay_timer == Some(timer) => {
                self.delay_timer = None;
                self.grant_next_waiter(ctx)
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
                super::answer_sequencer(ctx, from, writer, token, valid)
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
            Payload::Acquire { ttl, value } => {
                let delayed = self.delay_until.is_some_and(|until| ctx.local < until);
                let free = self.table.holder.is_none_or(|(h, _, _)| h == from);
                if free && !delayed && !self.grant_pending() {
                    let op = Op::Grant {
                        client: from,
                        value,
                        revision: self.next_revision(),
                        ttl,
                    };
                    let index = self.append(op);
                    self.broadcast_appends(ctx);
                    return Happening::Appended {
                        node: me,
                        index,
                        op,
                    };
                }
                if self.config.waiters == Waiting::Herd {
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
                // A client asking again replaces its place with its latest attempt.
                let waiter = Waiter {
                    client: from,
                    value,
                    ttl,
                    session_until: ctx.local.after(ttl),
                };
                match self.waiters.iter_mut().find(|w| w.client == from) {
                    Some(place) => *place = waiter,
                    None => self.waiters.push(waiter),
                }
                let position = self
                    .waiters
                    .iter()
                    .position(|w| w.client == from)
                    .unwrap_or(0);
                Happening::Queued {
                    node: me,
                    client: from,
                    ahead: u32::try_from(position).unwrap_or(u32::MAX),
                    until: if delayed { self.delay_until } else { None },
                }
            }
            Payload::Renew { ttl, .. }
                if self.table.holder.is_none_or(|(h, _, _)| h != from)
                    && self.waiters.iter().any(|w| w.client == from) =>
            {
                // A waiter's keepalive: its place in the queue stays valid.
                for waiter in self.waiters.iter_mut().filter(|w| w.client == from) {
                    waiter.session_until = ctx.local.after(ttl);
                }
                ctx.send(from, Payload::RenewReply { renewed: true });
                Happening::Silent
            }
            Payload::Renew { token, ttl, .. } => {
                let renewed = self.table.holder.is_some_and(|(h, _, _)| h == from);
                ctx.send(from, Payload::RenewReply { renewed });
                let token = if renewed {
                    self.session_until = Some(ctx.local.after(ttl));
                    self.arm_session(ctx, ttl);
                    self.table.holder.map(|(_, revision, _)| revision)
                } else {
                    token
                };
                let holder = self.table.holder.map(|(h, _, _)| h);
                super::renew_outcome(from, token, ttl, renewed, holder)
            }
            Payload::Release { token, .. } => {
                let current = self
                    .table
                    .holder
                    .is_some_and(|(h, revision, _)| h == from && token == Some(revision));
                if !current {
                    ctx.send(from, Payload::ReleaseReply { released: false });
                    return Happening::ReleaseRefused {
                        client: from,
                        token,
                        holder: self.table.holder.map(|(h, _, _)| h),
                    };
                }
                let op = Op::Release { client: from };
                let index = self.append(op);
                self.broadcast_appends(ctx);
                Happening::Appended {
                    node: me,
                    index,
                    op,
                }
            }
            _ => ignored(ctx),
        }
    }

    fn on_raft(&mut self, ctx: &mut Ctx<'_>, from: NodeId, message: RaftMessage) -> Happening {
        let me = ctx.me;
        let sender = u8::try_from(from.0).unwrap_or(u8::MAX);
        match message {
            RaftMessage::Append {
                term,
                index,
                prev_term,
                entry,
                commit,
            } => {
                if term < self.term {
                    let ack = RaftMessage::Ack {
                        term: self.term,
                        matched: 0,
                        ok: false,
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
                };
                ctx.send(from, Payload::Raft(ack));
                if was_leader {
                    return Happening::SteppedDown {
                        node: me,
                        term: self.term,
                    };
                }
                match acceptance {
                    Acceptance::Stored => Happening::Stored {
                        node: me,
                        index,
                        leader: from,
                    },
                    _ if self.commit > before => Happening::Committed {
                        node: me,
                        index: self.commit,
                    },
                    _ => Happening::Silent,
                }
            }
            RaftMessage::Ack { term, matched, ok } => {
                if term > self.term {
                    let was_leader = self.role == RaftRole::Leader;
                    self.step_down(term);
                    self.arm_election_check(ctx);
                    return if was_leader {
                        Happening::SteppedDown { node: me, term }
                    } else {
                        Happening::Silent
                    };
                }
                if self.role != RaftRole::Leader || term < self.term {
                    return Happening::Silent;
                }
                let follower = usize::from(sender);
                if follower >= self.matched.len() {
                    return Happening::Silent;
                }
                self.heard_from[follower] = ctx.local;
                if ok {
                    self.matched[follower] = self.matched[follower].max(matched);
                    self.next[follower] = self.next[follower].max(self.matched[follower] + 1);
                } else {
                    // It lacks earlier entries: back up towards what it has committed.
                    let back = self.next[follower].saturating_sub(1).min(matched + 1);
                    self.next[follower] = back.max(1);
                }
                let target = self.majority_index();
                if target <= self.commit {
                    return Happening::Silent;
                }
                let holder_before = self.table.holder;
                let applied = self.commit_to(target, ctx.local);
                let learnt = self.table.holder.is_some() && self.table.holder != holder_before;
                if learnt && !matches!(applied, Applied::Granted { .. }) {
                    // A holder granted by an earlier leader, learnt only now: without a timer
                    // its session would never expire if it has died.
                    self.arm_session_remaining(ctx);
                }
                self.answer(ctx, applied, target)
            }
            RaftMessage::Vote {
                term,
                last_index,
                last_term,
            } => {
                let was_leader = self.role == RaftRole::Leader;
                if term > self.term {
                    self.step_down(term);
                    self.arm_election_check(ctx);
                }
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
                    return Happening::SteppedDown {
                        node: me,
                        term: self.term,
                    };
                }
                Happening::Voted {
                    node: me,
                    candidate: from,
                    term,
                    granted,
                }
            }
            RaftMessage::VoteReply { term, granted } => {
                if term > self.term {
                    self.step_down(term);
                    self.arm_election_check(ctx);
                    return Happening::Silent;
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
                    node: me,
                    term: self.term,
                }
            }
        }
    }

    /// The leader has committed entries: answer the client they were for, and hand a freed lock
    /// to the next waiter.
    fn answer(&mut self, ctx: &mut Ctx<'_>, applied: Applied, index: u32) -> Happening {
        match applied {
            Applied::Granted {
                client,
                value,
                revision,
                ttl,
            } => {
                self.waiters.retain(|w| w.client != client);
                self.arm_session(ctx, ttl);
                let reply = Payload::AcquireReply {
                    value,
                    reply: AcquireReply::Granted {
                        token: Some(revision),
                    },
                };
                ctx.send(client, reply);
                Happening::Granted {
                    client,
                    token: Some(revision),
                    ttl,
                }
            }
            Applied::Released { client } => {
                ctx.send(client, Payload::ReleaseReply { released: true });
                // What follows the release is the more telling event, when it is not routine.
                match self.grant_next_waiter(ctx) {
                    notable @ (Happening::HerdWoken { .. }
                    | Happening::GrantedWithoutLease { .. }
                    | Happening::WaiterExpired { .. }) => notable,
                    _ => Happening::Released {
                        client,
                        token: Some(self.table.revision),
                    },
                }
            }
            Applied::Expired { .. } => {
                match self.delay_until {
                    Some(until) if until > ctx.local => {
                        let wait = u64::try_from(until.since(ctx.local)).unwrap_or(0);
                        self.delay_timer = Some(
                            ctx.set_timer(TimerSpan::Fixed(Millis(wait)), TimerKind::LockDelayOver),
                        );
                    }
                    _ => {
                        // As after a release: what follows is the more telling event.
                        if let notable @ (Happening::HerdWoken { .. }
                        | Happening::GrantedWithoutLease { .. }
                        | Happening::WaiterExpired { .. }) = self.grant_next_waiter(ctx)
                        {
                            return notable;
                        }
                    }
                }
                Happening::Committed {
                    node: ctx.me,
                    index,
                }
            }
            Applied::Nothing => Happening::Committed {
                node: ctx.me,
                index,
            },
        }
    }

    /// Appends a grant for the first waiter, if the lock is free and may be granted.
    fn grant_next_waiter(&mut self, ctx: &mut Ctx<'_>) -> Happening {
        let delayed = self.delay_until.is_some_and(|until| ctx.local < until);
        if self.role != RaftRole::Leader
            || self.table.holder.is_some()
            || delayed
            || self.grant_pending()
        {
            return Happening::Silent;
        }
        if !self.watchers.is_empty() {
            let woken = std::mem::take(&mut self.watchers);
            for &client in &woken {
                ctx.send(client, Payload::LockFreed);
            }
            return Happening::HerdWoken {
                node: ctx.me,
                woken: u32::try_from(woken.len()).unwrap_or(u32::MAX),
            };
        }
        let Some(waiter) = self.waiters.first().copied() else {
            return Happening::Silent;
        };
        if waiter.session_until < ctx.local {
            self.waiters.remove(0);
            if self.config.bug == KnownBug::Etcd343 {
                // The bug: the waiter is told it holds the lock, and nothing is written.
                let reply = Payload::AcquireReply {
                    value: waiter.value,
                    reply: AcquireReply::Granted {
                        token: Some(self.table.revision),
                    },
                };
                ctx.send(waiter.client, reply);
                return Happening::GrantedWithoutLease {
                    node: ctx.me,
                    client: waiter.client,
                };
            }
            let reply = Payload::AcquireReply {
                value: waiter.value,
                reply: AcquireReply::HeldElsewhere,
            };
            ctx.send(waiter.client, reply);
            let skipped = Happening::WaiterExpired {
                node: ctx.me,
                client: waiter.client,
            };
            return match self.grant_next_waiter(ctx) {
                Happening::Silent => skipped,
                next => next,
            };
        }
        let op = Op::Grant {
            client: waiter.client,
            value: waiter.value,
            revision: self.next_revision(),
            ttl: waiter.ttl,
        };
        let index = self.append(op);
        self.broadcast_appends(ctx);
        Happening::Appended {
            node: ctx.me,
            index,
            op,
        }
    }

    /// The teaching control: the holder's session ends now.
    pub fn force_expire(&mut self, ctx: &mut Ctx<'_>) -> Option<NodeId> {
        if self.role != RaftRole::Leader {
            return None;
        }
        let (holder, _, _) = self.table.holder?;
        self.session_until = Some(LocalTime(ctx.local.0 - 1));
        self.append(Op::Expire { client: holder });
        self.broadcast_appends(ctx);
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
        assert!(matches!(
            leader.commit_to(index, LocalTime(0)),
            Applied::Granted { .. }
        ));
        assert_eq!(
            leader.table.holder,
            Some((NodeId(4), FencingToken(1), Millis(1000)))
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
        leader.table.holder = Some((NodeId(4), FencingToken(1), Millis(1000)));
        leader.session_until = Some(LocalTime(10_000));
        leader.heard_from[1] = LocalTime(100);
        assert!(leader.live_lease(LocalTime(200)).is_some());
        assert!(
            leader.live_lease(LocalTime(1_000)).is_none(),
            "no follower heard from for too long"
        );
    }
}
