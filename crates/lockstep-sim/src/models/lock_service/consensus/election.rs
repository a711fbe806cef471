//! Terms and elections (Raft §5.1, §5.2): following a later term, calling an
//! election when its leader has gone quiet, voting, withholding a vote while it still hears its
//! leader (check-quorum), and becoming the leader. It does not replicate (`replication.rs`).

use super::Replica;
use super::lock_state::Lessor;
use super::lock_state::Waiter;
use super::raft_state::RaftRole;
use crate::vocabulary::happening::{Happening, StepDown, Withheld};
use crate::vocabulary::message::Payload;
use crate::vocabulary::raft::{Op, RaftMessage};
use crate::vocabulary::timer::{TimerKind, TimerSpan};
use crate::world::ids::NodeId;
use crate::world::node::Ctx;
use crate::world::time::{LocalTime, Millis};

impl Replica {
    /// Whether it must not help elect another leader: it leads with a quorum, or it heard from
    /// its leader less than an election timeout ago.
    pub(super) fn in_lease(&self, now: LocalTime) -> bool {
        match self.role {
            RaftRole::Leader => self.has_quorum(now),
            RaftRole::Follower => self
                .leader_seen
                .is_some_and(|seen| now.since(seen) < self.config.election_timeout.as_i64()),
            RaftRole::Candidate => false,
        }
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

    /// Followers wait a little longer the higher their number, so that one of them, not all at
    /// once, calls the election (Raft randomises this; a fixed stagger keeps runs readable).
    pub(super) fn arm_election_check(&mut self, ctx: &mut Ctx<'_>) {
        let wait = self.config.election_timeout.0 + u64::from(self.me) * self.config.heartbeat.0;
        self.election_timer =
            Some(ctx.set_timer(TimerSpan::Fixed(Millis(wait)), TimerKind::ElectionCheck));
    }

    /// Becomes a follower of `term` on hearing of it from a replica that is not (yet) its
    /// leader: a vote request or an answer. The election timer keeps running — only a current
    /// leader or a granted vote resets it (Raft §5.2) — and a former leader starts one.
    pub(super) fn follow_term(&mut self, ctx: &mut Ctx<'_>, term: u32) {
        self.step_down(term);
        if self.election_timer.is_none() {
            self.arm_election_check(ctx);
        }
    }

    /// The election timer: a replica that has not heard from a leader (or granted a vote) for
    /// its election timeout becomes a candidate of the next term and asks the others for votes.
    pub(super) fn on_election_check(&mut self, ctx: &mut Ctx<'_>) -> Happening {
        let me = ctx.me;
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

    /// Raft's rule for every message (§5.1): a later term than ours means a later election, so
    /// take up its term and follow. Says whether this replica was leading before.
    pub(super) fn take_later_term(&mut self, ctx: &mut Ctx<'_>, term: u32) -> bool {
        let was_leader = self.role == RaftRole::Leader;
        if term > self.term {
            self.follow_term(ctx, term);
        }
        was_leader
    }

    /// An answer (an ack or a vote reply) from a later term: this replica follows that term, and
    /// has nothing more to do with the answer.
    pub(super) fn answered_from_later_term(
        &mut self,
        ctx: &mut Ctx<'_>,
        term: u32,
    ) -> Option<Happening> {
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
    pub(super) fn stepped_down(&self, me: NodeId) -> Happening {
        Happening::SteppedDown {
            node: me,
            term: self.term,
            why: StepDown::LaterTerm,
        }
    }

    /// A vote request of a later term while this replica must not help elect another leader
    /// (`in_lease`): unanswered, as etcd does, and the candidate's term is not taken up either.
    pub(super) fn withhold_vote(&self, ctx: &Ctx<'_>, candidate: NodeId, term: u32) -> Happening {
        Happening::VoteWithheld {
            node: ctx.me,
            candidate,
            term,
            why: if self.role == RaftRole::Leader {
                Withheld::Leading
            } else {
                Withheld::LeaderHeard
            },
        }
    }

    /// A candidate asks for this replica's vote.
    pub(super) fn on_vote(
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
    pub(super) fn on_vote_reply(
        &mut self,
        ctx: &mut Ctx<'_>,
        term: u32,
        granted: bool,
    ) -> Happening {
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

    /// Becomes the leader of its term: it appends its no-op and serves nothing until that
    /// commits (`promote`), since its state may still show what a stored entry undid.
    pub(super) fn lead(&mut self, ctx: &mut Ctx<'_>) {
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
}
