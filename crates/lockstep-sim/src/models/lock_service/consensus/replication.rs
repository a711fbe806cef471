//! Log replication (Raft §5.3) and the leader's quorum: heartbeats and appends, a follower
//! taking them, a leader counting acks and advancing its commit point. Applying what commits is
//! `commit.rs`; elections are `election.rs`.

use super::Replica;
use super::lock_state::Lessor;
use super::raft_state::Acceptance;
use super::raft_state::AppendAt;
use super::raft_state::RaftRole;
use crate::vocabulary::happening::{Happening, StepDown};
use crate::vocabulary::message::Payload;
use crate::vocabulary::raft::{Op, RaftMessage};
use crate::vocabulary::timer::{TimerKind, TimerSpan};
use crate::world::ids::NodeId;
use crate::world::node::Ctx;
use crate::world::time::LocalTime;

impl Replica {
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

    pub(super) fn arm_heartbeat(&mut self, ctx: &mut Ctx<'_>) {
        self.heartbeat_timer = Some(ctx.set_timer(
            TimerSpan::Fixed(self.config.heartbeat),
            TimerKind::Heartbeat,
        ));
    }

    /// The heartbeat timer: a leader that has lost its quorum steps down; one that has not sends
    /// every follower what it lacks, or a heartbeat.
    pub(super) fn on_heartbeat(&mut self, ctx: &mut Ctx<'_>) -> Happening {
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
                node: ctx.me,
                term,
                why: StepDown::LostQuorum,
            };
        }
        self.broadcast_appends(ctx);
        self.arm_heartbeat(ctx);
        Happening::Silent
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

    pub(super) fn broadcast_appends(&self, ctx: &mut Ctx<'_>) {
        for to in self.others() {
            self.send_append(ctx, to);
        }
    }

    /// Appends a client's `op` and replicates it: an `Appended` event, or what committing it at
    /// once led to.
    pub(super) fn append_and_replicate(&mut self, ctx: &mut Ctx<'_>, op: Op) -> Happening {
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
    pub(super) fn replicate(&mut self, ctx: &mut Ctx<'_>, appended: Happening) -> Happening {
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
    pub(super) fn advance_commit(&mut self, ctx: &mut Ctx<'_>) -> Happening {
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

    /// A leader's append or heartbeat. A current leader's word also deposes a candidate or a
    /// leader of the same term, and resets the election timer (Raft §5.2).
    pub(super) fn on_append(
        &mut self,
        ctx: &mut Ctx<'_>,
        from: NodeId,
        term: u32,
        at: AppendAt,
    ) -> Happening {
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
    pub(super) fn on_ack(
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
}
