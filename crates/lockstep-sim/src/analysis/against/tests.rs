//! The comparison's Done-when: the role mapping for every ordered pair of services and every
//! intervention kind, the clock-jump comparison and the failover comparisons.

use super::*;
use crate::Sim;
use crate::analysis::chaos::ChaosBackend;
use crate::scenario::catalogue;
use crate::vocabulary::invariant::Invariant;
use crate::world::intervention::{Action, Intervention};

fn load(id: &str) -> crate::Scenario {
    catalogue::find(id).unwrap().load().unwrap()
}

/// Replays a scenario on its own, as `lockstep-cli run` would.
fn replay(scenario: &crate::Scenario) -> SideVerdict {
    let mut sim = Sim::new(scenario).unwrap();
    sim.run_to_end();
    SideVerdict::of(service_of(&scenario.lock_service), sim.trace())
}

/// A twin on the same service must break what A broke: mapping by role is a renaming there.
/// Mapping every minority node of the same role onto one node (not one node each) loses
/// Kleppmann's partitions, and client-2 never reaches a majority: this fails.
#[test]
fn against_the_same_service_the_twin_breaks_what_the_original_broke() {
    for id in ["s10-redlock-clock-jump", "s9-failover-loses-the-lock"] {
        let scenario = load(id);
        let service = service_of(&scenario.lock_service);
        let twin = against(&scenario, &[], service).unwrap();
        assert!(twin.verdict_a.broke(Invariant::OneBeliever), "{id}");
        assert!(
            twin.verdict_b.broke(Invariant::OneBeliever),
            "{id}: {}\n{:#?}",
            twin.verdict_line(),
            twin.carried
        );
        assert_eq!(twin.unmapped().count(), 0, "{id}");
    }
}

fn mapped_action(carried: &Carried) -> &Action<String> {
    match &carried.onto_b {
        Carry::Mapped { intervention } => &intervention.action,
        Carry::NoCounterpart { reason } => panic!("not carried: {reason}"),
    }
}

/// Kleppmann's clock jump on Redis node C: two holders on Redlock. Carried by role, the jump
/// lands on a consensus follower (one node of several that granted nothing itself), and the
/// consensus service never has two. By name it could not be carried at all (there is no
/// `redis-c`), and a single SQL row has no minority to jump.
#[test]
fn the_clock_jump_gives_redlock_two_holders_and_consensus_none() {
    let scenario = load("s10-redlock-clock-jump");
    let twin = against(&scenario, &[], ChaosBackend::Consensus).unwrap();
    assert_eq!(
        twin.verdict_line(),
        "Redlock, 5 nodes: two clients believed they held the lock from 550 ms; Consensus, 3 \
         replicas: never"
    );
    assert!(twin.verdict_a.broke(Invariant::OneBeliever));
    assert!(twin.verdict_b.broken.is_empty());
    let jump = twin
        .carried
        .iter()
        .find(|c| matches!(c.on_a.action, Action::ClockJump { .. }))
        .unwrap();
    assert_eq!(
        jump.roles,
        vec![Target::Service {
            role: ServiceRole::Minority {
                grants_holder: GrantsHolder::Yes
            }
        }]
    );
    assert_eq!(
        mapped_action(jump),
        &Action::ClockJump {
            node: "etcd-2".to_owned(),
            by_ms: 15_000
        },
        "a follower: etcd-1 leads"
    );
    assert_eq!(jump.roles_b.len(), 1);
    assert_eq!(
        jump.roles_b[0].describe(ChaosBackend::Consensus),
        "a follower"
    );
    assert_eq!(
        jump.roles[0].describe(ChaosBackend::Redlock),
        "one of Redlock's nodes, a minority, which granted the current holder its lease"
    );
    // The exported twin replays to the same verdict on its own.
    assert_eq!(replay(&twin.scenario_b), twin.verdict_b);

    let sql = against(&scenario, &[], ChaosBackend::SqlRow).unwrap();
    let jump = sql
        .unmapped()
        .find(|c| matches!(c.on_a.action, Action::ClockJump { .. }))
        .unwrap();
    assert_eq!(
        jump.onto_b,
        Carry::NoCounterpart {
            reason: "a single SQL row has no minority of nodes to jump a clock on: the twin runs \
                     without it"
                .to_owned()
        }
    );
}

/// The primary crashes before replicating the lock: the promoted replica grants it again
/// (two holders). Carried by role, the crash hits the consensus leader, whose successor already
/// has the grant in its log: one holder throughout.
#[test]
fn a_failover_loses_the_lock_on_the_replicated_cache_and_not_on_consensus() {
    let twin = against(
        &load("s9-failover-loses-the-lock"),
        &[],
        ChaosBackend::Consensus,
    )
    .unwrap();
    assert!(
        twin.verdict_a.broke(Invariant::OneBeliever),
        "{}",
        twin.verdict_line()
    );
    assert!(twin.verdict_b.broken.is_empty(), "{}", twin.verdict_line());
    assert_eq!(
        mapped_action(&twin.carried[0]),
        &Action::Crash {
            node: "etcd-1".to_owned()
        },
        "the leader"
    );
    assert_eq!(
        twin.carried[0].roles_b[0].describe(ChaosBackend::Consensus),
        "the leader, which granted the current holder its lease"
    );
    assert_eq!(replay(&twin.scenario_b), twin.verdict_b);
}

/// The other way round: the consensus leader crashes right after granting (a user's crash at
/// 20 ms in place of the scenario's own at 600 ms). Consensus keeps the lock; carried onto the
/// replicated cache, the crash hits the primary before its 50 ms replication lag is over, and
/// the promoted replica, which never heard of the lock or its token, grants the lock again with
/// the same token (the lost lock shows as a token that did not increase).
#[test]
fn a_leader_crash_keeps_the_lock_on_consensus_and_loses_it_on_the_replicated_cache() {
    let mut scenario = load("s15-consensus-leader-crash");
    scenario.interventions.clear();
    scenario.expectations.clear();
    let crash = Intervention {
        at_ms: crate::world::time::VirtualTime(20),
        action: Action::Crash {
            node: "etcd-1".to_owned(),
        },
    };
    let twin = against(&scenario, &[crash], ChaosBackend::ReplicatedCache).unwrap();
    assert!(twin.verdict_a.broken.is_empty(), "{}", twin.verdict_line());
    assert_eq!(
        twin.verdict_b.first().map(|b| b.invariant),
        Some(Invariant::TokensIncrease),
        "{}",
        twin.verdict_line()
    );
    assert_eq!(
        mapped_action(&twin.carried[0]),
        &Action::Crash {
            node: "redis-primary".to_owned()
        }
    );
    assert_eq!(replay(&twin.scenario_b), twin.verdict_b);

    // The scenario as written crashes the leader at 600 ms, long after the lock replicated:
    // the replicated cache keeps it then too. Role, not luck: the crash still hits the primary.
    let twin = against(
        &load("s15-consensus-leader-crash"),
        &[],
        ChaosBackend::ReplicatedCache,
    )
    .unwrap();
    assert_eq!(
        mapped_action(&twin.carried[0]),
        &Action::Crash {
            node: "redis-primary".to_owned()
        }
    );
    assert!(twin.verdict_b.broken.is_empty(), "{}", twin.verdict_line());
}

/// A small run on `service`'s default setup, with one intervention of every kind: on the
/// service's first node (its front, where it has one) and its last (a minority, where it has
/// several), on a client's link to the service, on messages, and on the service as a whole.
fn every_kind_on(service: ChaosBackend) -> crate::Scenario {
    let mut scenario = load("s9-failover-loses-the-lock");
    scenario.id = format!("every-kind-on-{}", service.id());
    scenario.lock_service = service.spec();
    scenario.expectations.clear();
    scenario.network.latency_ms = [5, 10];
    let nodes = service.spec().node_names();
    let first = nodes.first().unwrap().clone();
    let last = nodes.last().unwrap().clone();
    let at = |ms| crate::world::time::VirtualTime(ms);
    let actions = one_of_every_kind(&first, &last);
    scenario.interventions = actions
        .into_iter()
        .map(|(ms, action)| Intervention {
            at_ms: at(ms),
            action,
        })
        .collect();
    scenario
}

/// One intervention of every kind, at `ms`: on messages of the first acquisition, on the
/// service's `first` and `last` nodes, on client-a's link to `last`, and on the whole service.
fn one_of_every_kind(first: &str, last: &str) -> Vec<(u64, Action<String>)> {
    let message = |id| crate::world::ids::MessageId(id);
    let (first, last) = (first.to_owned(), last.to_owned());
    vec![
        // Messages the first acquisition sent, still in flight at 3 ms (latency 5–10 ms).
        (
            3,
            Action::Hold {
                message: message(0),
            },
        ),
        (
            3,
            Action::Drop {
                message: message(1),
            },
        ),
        (
            20,
            Action::Release {
                message: message(0),
            },
        ),
        (
            1_000,
            Action::Pause {
                node: first.clone(),
                for_ms: Some(crate::world::time::Millis(100)),
            },
        ),
        (
            1_000,
            Action::Pause {
                node: last.clone(),
                for_ms: None,
            },
        ),
        (1_200, Action::Resume { node: last.clone() }),
        (1_300, Action::Crash { node: last.clone() }),
        (1_500, Action::Restart { node: last.clone() }),
        (
            1_600,
            Action::ClockJump {
                node: first.clone(),
                by_ms: 100,
            },
        ),
        (
            1_600,
            Action::ClockDrift {
                node: last.clone(),
                drift_ppm: 100,
            },
        ),
        (
            1_700,
            Action::Partition {
                from: "client-a".to_owned(),
                to: last.clone(),
                direction: crate::vocabulary::happening::Direction::Both,
            },
        ),
        (
            1_900,
            Action::Heal {
                a: last.clone(),
                b: "client-a".to_owned(),
            },
        ),
        (2_500, Action::ForceExpire {}),
        (2_600, Action::Failover {}),
    ]
}

fn kind(action: &Action<String>) -> std::mem::Discriminant<Action<String>> {
    std::mem::discriminant(action)
}

/// A minority has no counterpart on a single node; the front always has one on a service with
/// a front; clients and the resource keep their names; only a replicated cache takes a
/// failover; a forced expiry always carries.
fn the_roles_rules_hold(
    what: &str,
    service_b: ChaosBackend,
    carried: &Carried,
    original: &Intervention<String>,
) {
    // A minority has no counterpart on a single node; the front always has one on a
    // service with a front; clients and the resource keep their names.
    let single = matches!(service_b, ChaosBackend::SqlRow | ChaosBackend::Cache);
    for role in &carried.roles {
        match role {
            Target::Service {
                role: ServiceRole::Minority { .. },
            } if single => {
                assert!(!carried.is_mapped(), "{what}");
            }
            Target::Service {
                role: ServiceRole::Front { .. },
            } if single
                && carried.roles.len() == 1
                && !matches!(
                    original.action,
                    Action::Restart { .. } | Action::Resume { .. }
                ) =>
            {
                assert!(carried.is_mapped(), "{what}: {:?}", carried.onto_b);
            }
            _ => {}
        }
    }
    if let Action::Failover {} = original.action {
        assert_eq!(
            carried.is_mapped(),
            service_b == ChaosBackend::ReplicatedCache,
            "{what}"
        );
    }
    if let Action::ForceExpire {} = original.action {
        assert!(carried.is_mapped(), "{what}");
    }
}

/// Every ordered pair of the six services (and each against itself) × every intervention kind:
/// each intervention either maps onto nodes of B's cast at the same moment, or is reported with
/// a reason; the rules that follow from the roles hold; B's scenario is valid and replays.
#[test]
fn every_intervention_kind_maps_or_says_why_for_every_pair_of_services() {
    for service_a in ChaosBackend::ALL {
        let scenario = every_kind_on(service_a);
        assert!(Sim::new(&scenario).is_ok(), "{}", scenario.id);
        for service_b in ChaosBackend::ALL {
            let pair = format!("{} against {}", service_a.id(), service_b.id());
            let twin = against(&scenario, &[], service_b).unwrap();
            let b_cast = twin.scenario_b.check().unwrap().into_cast();
            assert_eq!(twin.carried.len(), scenario.interventions.len(), "{pair}");
            assert_eq!(replay(&twin.scenario_b), twin.verdict_b, "{pair}");
            for (carried, original) in twin.carried.iter().zip(&scenario.interventions) {
                assert_eq!(&carried.on_a, original, "{pair}: in the run's order");
                let what = format!("{pair}: {:?}", carried.on_a.action);
                match &carried.onto_b {
                    Carry::Mapped { intervention } => {
                        assert_eq!(intervention.at_ms, original.at_ms, "{what}");
                        assert_eq!(kind(&intervention.action), kind(&original.action), "{what}");
                        // Every node it names is one of B's: by name, A's service nodes are not.
                        let named = intervention
                            .action
                            .clone()
                            .try_map(|name| b_cast.find(&name).ok_or(name));
                        assert!(named.is_ok(), "{what}: names {named:?}");
                    }
                    Carry::NoCounterpart { reason } => {
                        assert!(
                            reason.ends_with("the twin runs without it"),
                            "{what}: {reason}"
                        );
                    }
                }
                the_roles_rules_hold(&what, service_b, carried, original);
            }
            if service_a == service_b {
                // Against itself, every intervention finds its node, and every message in
                // flight its message: the roles are all there. Only a failover without a
                // replica, or a message not sent yet (a single node's run sends one at 0 ms),
                // has none.
                let missing: Vec<_> = twin
                    .unmapped()
                    .filter(|c| match &c.onto_b {
                        Carry::NoCounterpart { reason } => {
                            !matches!(c.on_a.action, Action::Failover {})
                                && !reason.contains("has not been sent")
                        }
                        Carry::Mapped { .. } => false,
                    })
                    .collect();
                assert!(
                    twin.mapped()
                        .any(|c| matches!(c.on_a.action, Action::Hold { .. })),
                    "{pair}: the acquisition's first message is held on both sides"
                );
                assert!(missing.is_empty(), "{pair}: {missing:#?}");
            }
        }
    }
}

/// Every catalogue scenario against every service gives a twin whose scenario is valid and
/// replays to the twin's verdict (long ids included: a twin's id must still fit in 64).
#[test]
fn every_catalogue_scenario_has_a_valid_twin_on_every_service() {
    for built_in in catalogue::BUILT_IN {
        let scenario = built_in.load().unwrap();
        for service in ChaosBackend::ALL {
            let twin = against(&scenario, &[], service)
                .unwrap_or_else(|e| panic!("{} against {}: {e}", built_in.id, service.id()));
            assert_eq!(
                replay(&twin.scenario_b),
                twin.verdict_b,
                "{} against {}",
                built_in.id,
                service.id()
            );
        }
    }
}
