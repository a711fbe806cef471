//! Raft's liveness after a partition heals: followers reset their election timer only when they
//! hear from a current leader or grant a vote, and stand when it runs out (Raft, Ongaro and
//! Ousterhout 2014, §5.2), so a cut-off ex-leader that keeps calling elections it cannot win
//! does not keep the others from electing one.

use crate::cases::Cases;
use crate::property::Property;
use crate::support::run;
use lockstep_sim::Scenario;
use lockstep_sim::Sim;
use lockstep_sim::engine::sim::Node;
use lockstep_sim::models::lock_service::{Backend, LockService, RaftRole};
use lockstep_sim::scenario::types::LockServiceSpec;
use lockstep_sim::story::export::trace_text;
use lockstep_sim::vocabulary::happening::{Direction, Happening};
use lockstep_sim::world::intervention::{Action, Intervention};
use lockstep_sim::world::time::VirtualTime;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

const HEARTBEAT_MS: u64 = 100;
const ELECTION_TIMEOUT_MS: u64 = 500;

fn cluster(replicas: u8, end_ms: u64) -> Scenario {
    Scenario::parse(&format!(
        r#"{{"format":1,"id":"t","title":"t","seed":3,"end_ms":{end_ms},
          "lock_service":{{"kind":"consensus","replicas":{replicas},
                          "heartbeat_ms":{HEARTBEAT_MS},"election_timeout_ms":{ELECTION_TIMEOUT_MS}}},
          "resource":{{"kind":"register","fencing":"on"}},
          "network":{{"latency_ms":[2,8]}},
          "clients":[{{"name":"client-a","start_ms":{},"ttl_ms":2000,"work_ms":100,
                      "access":{{"kind":"blind_write","value":1}}}}]}}"#,
        end_ms - 1_000
    ))
    .expect("the test cluster parses")
}

fn with(mut scenario: Scenario, at_ms: u64, action: Action<String>) -> Scenario {
    scenario.interventions.push(Intervention {
        at_ms: VirtualTime(at_ms),
        action,
    });
    scenario.interventions.sort_by_key(|i| i.at_ms);
    scenario
}

/// Time enough, once every link is back, for an election: each replica's timeout with its
/// stagger, twice over (a timer armed just before the heal), and a split vote.
fn bound(replicas: u8) -> u64 {
    4 * (ELECTION_TIMEOUT_MS + u64::from(replicas) * HEARTBEAT_MS)
}

/// Whether some replica leads with a quorum at the sim's current time.
fn has_a_leader(sim: &Sim) -> bool {
    sim.cast().services().any(|node| {
        let Some(slot) = sim.slot(node) else {
            return false;
        };
        match &slot.node {
            Node::LockService(LockService {
                backend: Backend::Consensus(replica),
                ..
            }) => {
                replica.role == RaftRole::Leader && replica.has_quorum(slot.local_time(sim.now()))
            }
            _ => false,
        }
    })
}

/// A replica steps down only from leadership: between two `stepped_down` of one replica it
/// must have become leader again.
fn stepped_down_twice(sim: &Sim) -> Option<String> {
    let mut leading: Vec<bool> = vec![false; sim.cast().len()];
    leading[0] = true;
    for event in sim.trace() {
        match event.happening {
            Happening::BecameLeader { node, .. } => leading[node.index()] = true,
            Happening::SteppedDown { node, .. } => {
                if !leading[node.index()] {
                    return Some(format!("event {}: {:?}", event.id, event.happening));
                }
                leading[node.index()] = false;
            }
            _ => {}
        }
    }
    None
}

fn cut(from: &str, to: &str) -> Action<String> {
    Action::Partition {
        from: from.to_owned(),
        to: to.to_owned(),
        direction: Direction::Both,
    }
}

fn heal(a: &str, b: &str) -> Action<String> {
    Action::Heal {
        a: a.to_owned(),
        b: b.to_owned(),
    }
}

fn leader_elected_after(scenario: &Scenario, healed_at: u64, replicas: u8) -> Result<(), String> {
    let mut sim = Sim::new(scenario).map_err(|e| e.to_string())?;
    sim.run_until(VirtualTime(healed_at + bound(replicas)));
    if !has_a_leader(&sim) {
        return Err(format!(
            "no leader {} ms after the heal at {healed_at} ms\n{}",
            bound(replicas),
            trace_text(&sim)
        ));
    }
    sim.run_to_end();
    if let Some(event) = stepped_down_twice(&sim) {
        return Err(format!(
            "stepped down twice without an election: {event}\n{}",
            trace_text(&sim)
        ));
    }
    Ok(())
}

/// The case in the issue: the leader is cut off from both followers, then healed at 2500 ms.
#[test]
fn a_leader_cut_off_from_both_followers_does_not_leave_the_cluster_leaderless() {
    let mut scenario = cluster(3, 12_000);
    for follower in ["etcd-2", "etcd-3"] {
        scenario = with(scenario, 1_000, cut("etcd-1", follower));
        scenario = with(scenario, 2_500, heal("etcd-1", follower));
    }
    leader_elected_after(&scenario, 2_500, 3).unwrap();
    let sim = run(&scenario);
    assert!(
        sim.trace()
            .iter()
            .any(|e| matches!(e.happening, Happening::GotLock { .. })),
        "client-a, starting at 11 s, gets the lock\n{}",
        trace_text(&sim)
    );
}

/// When every partition between the replicas heals in `after_any_partition_heals_…`.
const HEALED_AT: u64 = 3_000;

/// Any partitions between the replicas, all healed at `HEALED_AT`: a leader with a quorum is
/// elected within `bound`, and no replica steps down twice without being elected between.
pub const LEADER_AFTER_HEAL: Property = Property {
    id: "leader-after-heal",
    source_file: file!(),
    cases: Cases {
        test: 128,
        soak: 128,
    },
    check: a_leader_is_elected_after_the_heal,
};

#[test]
fn after_any_partition_heals_a_leader_is_elected_in_bounded_time() {
    LEADER_AFTER_HEAL.run(partitioned_cluster());
}

/// A cluster of 3 or 5 replicas with random cuts between them before `HEALED_AT`, and every
/// pair healed then.
fn partitioned_cluster() -> impl Strategy<Value = Scenario> {
    (
        prop_oneof![Just(3u8), Just(5u8)],
        proptest::collection::vec(
            (
                0u64..HEALED_AT,
                1u8..=5,
                1u8..=5,
                prop_oneof![Just(Direction::OneWay), Just(Direction::Both)],
            ),
            1..8,
        ),
    )
        .prop_map(|(replicas, cuts)| {
            let mut scenario = cluster(replicas, HEALED_AT + bound(replicas) + 2_000);
            for (at_ms, a, b, direction) in cuts {
                let (a, b) = (a.min(replicas), b.min(replicas));
                if a == b {
                    continue;
                }
                scenario = with(
                    scenario,
                    at_ms,
                    Action::Partition {
                        from: format!("etcd-{a}"),
                        to: format!("etcd-{b}"),
                        direction,
                    },
                );
            }
            for a in 1..=replicas {
                for b in (a + 1)..=replicas {
                    scenario = with(
                        scenario,
                        HEALED_AT,
                        heal(&format!("etcd-{a}"), &format!("etcd-{b}")),
                    );
                }
            }
            scenario
        })
}

fn a_leader_is_elected_after_the_heal(scenario: &Scenario) -> Result<(), TestCaseError> {
    let LockServiceSpec::Consensus { replicas, .. } = scenario.lock_service else {
        return Err(TestCaseError::fail("not a consensus cluster"));
    };
    leader_elected_after(scenario, HEALED_AT, replicas).map_err(TestCaseError::fail)
}
