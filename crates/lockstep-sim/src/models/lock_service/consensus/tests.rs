//! The replica by hand: Raft's rules one at a time, and the lock's answers around a change of
//! leader.

use super::raft_state::{Acceptance, Applied};
use super::{ConsensusConfig, KnownBug, Lease, Lessor, RaftRole, Replica, Waiting};
use crate::vocabulary::happening::Happening;
use crate::vocabulary::lock_value::LockValue;
use crate::vocabulary::message::{AcquireReply, Payload};
use crate::vocabulary::raft::{Entry, LockKey, Op, RaftMessage};
use crate::world::ids::NodeId;
use crate::world::node::Ctx;
use crate::world::time::{LocalTime, Millis};
use crate::world::token::FencingToken;

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
