//! Properties over random scenarios and random intervention sequences: no panic, determinism,
//! the data checked from outside (`support::data_holds`: the register's history is
//! linearizable, lost updates are found and are the invariant's, fencing on never loses a newer
//! holder's update) and the tokens clients are told, and invariant verdicts consistent with the
//! trace.

use crate::cases::{self, Cases};
use crate::property::Property;
use crate::support::{data_holds, every_answer_is_told, tokens_told_increase};
use lockstep_sim::models::client::ElapsedCheck;
use lockstep_sim::models::client::{
    Access, LeaseCheck, LocalDeadline, Locking, Renewal, Repeat, RequestTimeout, RetryPolicy,
    SafetyClock,
};
use lockstep_sim::models::lock_service::{KnownBug, Persistence, TokenSource, Waiting};
use lockstep_sim::models::resource::{Fencing, Idempotency, TokenMemory};
use lockstep_sim::scenario::types::ClientSpec;
use lockstep_sim::scenario::types::ConsensusSystem;
use lockstep_sim::scenario::types::LockServiceSpec;
use lockstep_sim::scenario::types::NetworkSpec;
use lockstep_sim::scenario::types::ResourceSpec;
use lockstep_sim::scenario::types::Scenario;
use lockstep_sim::story::export::trace_text;
use lockstep_sim::testing::intervention;
use lockstep_sim::vocabulary::happening::{Direction, Happening};
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::vocabulary::message::ReleaseMethod;
use lockstep_sim::world::ids::MessageId;
use lockstep_sim::world::intervention::{Action, Intervention};
use lockstep_sim::world::time::{Millis, VirtualTime};
use lockstep_sim::{Sim, scenario::catalogue};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

const END_MS: u64 = 8_000;

fn ms(range: std::ops::RangeInclusive<u64>) -> impl Strategy<Value = Millis> {
    range.prop_map(Millis)
}

fn access() -> impl Strategy<Value = Access> {
    prop_oneof![
        Just(Access::ReadModifyWrite {}),
        (0i64..5).prop_map(|value| Access::BlindWrite { value }),
        (1i64..3).prop_map(|amount| Access::Decrement { amount }),
        (1u32..4).prop_map(|attempts| Access::OptimisticUpdate { attempts }),
        (0u32..3, ms(50..=500), 1u32..4).prop_map(|(key, timeout_ms, attempts)| Access::Charge {
            key,
            amount: 10,
            timeout_ms,
            attempts
        }),
    ]
}

fn retry() -> impl Strategy<Value = RetryPolicy> {
    prop_oneof![
        Just(RetryPolicy::GiveUp {}),
        (ms(0..=300), 0u32..4)
            .prop_map(|(delay_ms, attempts)| RetryPolicy::Fixed { delay_ms, attempts }),
        (ms(0..=300), 0u32..4).prop_map(|(max_delay_ms, attempts)| RetryPolicy::Random {
            max_delay_ms,
            attempts
        }),
    ]
}

fn lease_check() -> impl Strategy<Value = LeaseCheck> {
    prop_oneof![
        Just(LeaseCheck::Never {}),
        (
            ms(0..=200),
            ms(0..=100),
            prop_oneof![
                Just(SafetyClock::FromAcquisition),
                Just(SafetyClock::FromLastRequest)
            ]
        )
            .prop_map(|(margin_ms, gap_ms, measure)| LeaseCheck::BeforeWrite {
                margin_ms,
                gap_ms,
                measure
            }),
    ]
}

fn client(index: usize) -> impl Strategy<Value = ClientSpec> {
    (
        (
            ms(0..=2_000),
            prop_oneof![Just(Locking::Lease), Just(Locking::None)],
            ms(50..=1_500),
            ms(0..=1_500),
            prop_oneof![
                Just(RequestTimeout::Never {}),
                ms(1..=1_000).prop_map(|ms| RequestTimeout::After { ms })
            ],
            prop_oneof![
                Just(LocalDeadline::Never {}),
                ms(1..=1_500).prop_map(|ms| LocalDeadline::After { ms })
            ],
        ),
        access(),
        retry(),
        prop_oneof![
            Just(ReleaseMethod::IfStillMine),
            Just(ReleaseMethod::PlainDelete)
        ],
        lease_check(),
        prop_oneof![
            Just(Renewal::Never {}),
            (0u32..5).prop_map(|max_renewals| Renewal::Every { max_renewals })
        ],
        prop_oneof![
            Just(Repeat::Once {}),
            ms(0..=500).prop_map(|interval_ms| Repeat::Every { interval_ms })
        ],
    )
        .prop_map(
            move |(
                (start_ms, locking, ttl_ms, work_ms, timeout, local_deadline),
                access,
                retry,
                release,
                lease_check,
                renewal,
                repeat,
            )| {
                ClientSpec {
                    name: format!("client-{index}"),
                    start_ms,
                    locking,
                    ttl_ms,
                    work_ms,
                    access,
                    retry,
                    release,
                    lease_check,
                    renewal,
                    repeat,
                    timeout,
                    local_deadline,
                }
            },
        )
}

/// The access the client was given if the resource supports it, else one that it does (a
/// scenario with a mismatch is rejected at load, which is tested elsewhere).
fn fitting(access: Access, resource: &ResourceSpec) -> Access {
    if resource.fencing() == Some(Fencing::CheckAndSet) {
        return match access {
            Access::OptimisticUpdate { .. } => access,
            _ => Access::ReadModifyWrite {},
        };
    }
    match (resource, access) {
        (
            ResourceSpec::Register { .. },
            Access::ReadModifyWrite {}
            | Access::BlindWrite { .. }
            | Access::OptimisticUpdate { .. },
        )
        | (ResourceSpec::Inventory { .. }, Access::Decrement { .. })
        | (ResourceSpec::Payments { .. }, Access::Charge { .. }) => access,
        (ResourceSpec::Register { .. }, _) => Access::ReadModifyWrite {},
        (ResourceSpec::Inventory { .. }, _) => Access::Decrement { amount: 1 },
        (ResourceSpec::Payments { .. }, _) => Access::Charge {
            key: 1,
            amount: 10,
            timeout_ms: Millis(100),
            attempts: 2,
        },
    }
}

fn cuts_a_node_from_itself(action: &Action<String>) -> bool {
    matches!(action, Action::Partition { from, to, .. } | Action::Heal { a: from, b: to } if from == to)
}

fn consensus() -> impl Strategy<Value = LockServiceSpec> {
    (
        prop_oneof![Just(1u8), Just(3u8), Just(5u8)],
        ms(20..=200),
        0u64..4,
        ms(0..=1_000),
        prop_oneof![Just(Waiting::FairQueue), Just(Waiting::Herd)],
    )
        .prop_map(|(replicas, heartbeat_ms, factor, lock_delay_ms, waiters)| {
            LockServiceSpec::Consensus {
                system: ConsensusSystem::Etcd,
                replicas,
                heartbeat_ms,
                election_timeout_ms: Millis(heartbeat_ms.0 * (2 + factor)),
                lock_delay_ms,
                waiters,
                bug: KnownBug::None,
            }
        })
}

/// Faults a consensus service must survive without breaking exclusion: crashes, partitions,
/// pauses and message loss — no clock faults (leader leases assume bounded drift).
fn fault(names: Vec<String>) -> impl Strategy<Value = Action<String>> {
    let node = move || proptest::sample::select(names.clone());
    prop_oneof![
        (node(), proptest::option::of(ms(1..=3_000)))
            .prop_map(|(node, for_ms)| Action::Pause { node, for_ms }),
        node().prop_map(|node| Action::Resume { node }),
        node().prop_map(|node| Action::Crash { node }),
        node().prop_map(|node| Action::Restart { node }),
        (
            node(),
            node(),
            prop_oneof![Just(Direction::OneWay), Just(Direction::Both)]
        )
            .prop_map(|(from, to, direction)| Action::Partition {
                from,
                to,
                direction
            }),
        (node(), node()).prop_map(|(a, b)| Action::Heal { a, b }),
        (0u32..200).prop_map(|m| Action::Drop {
            message: MessageId(m)
        }),
    ]
}

/// Every node's name in a generated scenario: the lock service's, the resource, the clients.
fn node_names(lock_service: &LockServiceSpec, clients: usize) -> Vec<String> {
    lock_service
        .node_names()
        .into_iter()
        .chain(["resource".to_owned()])
        .chain((0..clients).map(|i| format!("client-{i}")))
        .collect()
}

fn consensus_scenario() -> impl Strategy<Value = Scenario> {
    (1usize..=4, consensus(), any::<u64>())
        .prop_flat_map(|(clients, lock_service, seed)| {
            let services = lock_service.node_names();
            let names = node_names(&lock_service, clients);
            (
                (0..clients).map(client).collect::<Vec<_>>(),
                proptest::collection::vec(
                    (
                        (0..END_MS).prop_map(VirtualTime),
                        // Mostly at the replicas: that is where exclusion is decided.
                        prop_oneof![
                            3 => fault(services.clone()),
                            1 => fault(names.clone()),
                        ],
                    ),
                    0..16,
                ),
                Just(lock_service),
                Just(seed),
            )
        })
        .prop_map(|(clients, actions, lock_service, seed)| {
            let resource = ResourceSpec::Register {
                fencing: Fencing::On,
                initial_value: 0,
                token_memory: TokenMemory::Durable,
            };
            let network = NetworkSpec {
                latency_ms: [1, 20],
                loss_per_million: 10_000,
                links: Vec::new(),
            };
            random_scenario(clients, actions, lock_service, resource, network, seed)
        })
}

/// A generated scenario: accesses fitted to the resource, no intervention that cuts a node from
/// itself, interventions in time order.
fn random_scenario(
    mut clients: Vec<ClientSpec>,
    actions: Vec<(VirtualTime, Action<String>)>,
    lock_service: LockServiceSpec,
    resource: ResourceSpec,
    network: NetworkSpec,
    seed: u64,
) -> Scenario {
    for client in &mut clients {
        client.access = fitting(client.access, &resource);
    }
    let mut interventions: Vec<Intervention<String>> = actions
        .into_iter()
        .filter(|(_, action)| !cuts_a_node_from_itself(action))
        .map(|(at_ms, action)| Intervention { at_ms, action })
        .collect();
    interventions.sort_by_key(|i| i.at_ms);
    Scenario {
        format: 1,
        id: "random".into(),
        title: "random".into(),
        summary: String::new(),
        sources: Vec::new(),
        seed,
        end_ms: Millis(END_MS),
        lock_service,
        resource,
        network,
        clients,
        clocks: Vec::new(),
        interventions,
        expectations: Vec::new(),
    }
}

fn lock_service() -> impl Strategy<Value = LockServiceSpec> {
    prop_oneof![
        consensus(),
        (1u8..=5).prop_map(|members| LockServiceSpec::DataGrid { members }),
        Just(LockServiceSpec::SqlRow {
            lock_name: "x".into(),
            last_token: 32
        }),
        prop_oneof![Just(TokenSource::None), Just(TokenSource::Counter)].prop_map(|tokens| {
            LockServiceSpec::Cache {
                key: "x".into(),
                tokens,
                last_token: 0,
            }
        }),
        (
            prop_oneof![Just(TokenSource::None), Just(TokenSource::Counter)],
            ms(0..=500),
            ms(0..=1_000)
        )
            .prop_map(|(tokens, replication_lag_ms, failover_after_ms)| {
                LockServiceSpec::ReplicatedCache {
                    key: "x".into(),
                    tokens,
                    last_token: 0,
                    replication_lag_ms,
                    failover_after_ms,
                }
            }),
        (
            prop_oneof![Just(3u8), Just(5u8)],
            prop_oneof![
                Just(Persistence::None),
                Just(Persistence::EverySecond),
                Just(Persistence::Always)
            ],
            ms(0..=2_000),
            prop_oneof![Just(ElapsedCheck::On), Just(ElapsedCheck::Off)],
            ms(1..=200)
        )
            .prop_map(
                |(nodes, persistence, restart_delay_ms, elapsed_check, node_timeout_ms)| {
                    LockServiceSpec::Redlock {
                        nodes,
                        persistence,
                        restart_delay_ms,
                        elapsed_check,
                        node_timeout_ms,
                    }
                }
            ),
    ]
}

/// A random scenario: any lock service, resource, clients and interventions.
pub fn scenario() -> impl Strategy<Value = Scenario> {
    (1usize..=4, lock_service())
        .prop_flat_map(|(clients, lock_service)| {
            let names = node_names(&lock_service, clients);
            (
                (0..clients).map(client).collect::<Vec<_>>(),
                proptest::collection::vec(
                    ((0..END_MS).prop_map(VirtualTime), intervention(names)),
                    0..12,
                ),
                Just(lock_service),
                prop_oneof![
                    prop_oneof![
                        Just(Fencing::On),
                        Just(Fencing::Off),
                        Just(Fencing::Sequencer),
                        Just(Fencing::CheckAndSet)
                    ]
                    .prop_map(|fencing| {
                        ResourceSpec::Register {
                            fencing,
                            initial_value: 0,
                            token_memory: TokenMemory::Durable,
                        }
                    }),
                    (prop_oneof![Just(Fencing::On), Just(Fencing::Off)], 0i64..4).prop_map(
                        |(fencing, quantity)| ResourceSpec::Inventory {
                            fencing,
                            sku: "s".into(),
                            quantity
                        }
                    ),
                    prop_oneof![Just(Idempotency::Keys), Just(Idempotency::None)]
                        .prop_map(|idempotency| ResourceSpec::Payments { idempotency }),
                ],
                (0u64..30, 0u64..60, 0u32..200_000, any::<u64>()),
            )
        })
        .prop_map(
            |(clients, actions, lock_service, resource, (low, spread, loss, seed))| {
                let network = NetworkSpec {
                    latency_ms: [low, low + spread],
                    loss_per_million: loss,
                    links: Vec::new(),
                };
                random_scenario(clients, actions, lock_service, resource, network, seed)
            },
        )
}

/// Random runs of every lock service, resource and fault: no panic, the same trace twice, the
/// data checked from outside holds, and the trace is consistent with itself (event ids, time,
/// what breaks is violated, history invariants latch).
pub const RANDOM_RUNS: Property = Property {
    id: "random-runs",
    source_file: file!(),
    cases: Cases {
        test: 512,
        soak: 512,
    },
    check: random_run_keeps_its_invariants,
};

/// The consensus service never has two live grants, never issues a token that does not
/// increase, never tells two clients the same token, and the register's data holds (with
/// fencing on): under any crashes, partitions, pauses and message loss. A replica steps down
/// only from a leadership it won (the first replica leads at the start).
pub const CONSENSUS: Property = Property {
    id: "consensus-exclusion",
    source_file: file!(),
    cases: Cases {
        test: 512,
        soak: 512,
    },
    check: consensus_keeps_exclusion,
};

#[test]
fn random_runs_never_panic_and_keep_their_invariants() {
    RANDOM_RUNS.run(scenario());
}

#[test]
fn consensus_keeps_exclusion_and_increasing_tokens() {
    CONSENSUS.run(consensus_scenario());
}

fn random_run_keeps_its_invariants(scenario: &Scenario) -> Result<(), TestCaseError> {
    let mut sim = Sim::new(scenario).expect("generated scenarios are valid");
    sim.run_to_end();
    let mut again = Sim::new(scenario).expect("valid");
    again.run_to_end();
    prop_assert_eq!(sim.hash(), again.hash(), "same input, same trace");

    if let Err(broken) = data_holds(scenario, &sim).and_then(|()| every_answer_is_told(&sim)) {
        return Err(TestCaseError::fail(format!(
            "{broken}\n{}",
            trace_text(&sim)
        )));
    }
    let mut previous = None;
    for (index, event) in sim.trace().iter().enumerate() {
        prop_assert_eq!(event.id.0 as usize, index);
        prop_assert!(
            previous.is_none_or(|t| t <= event.time),
            "time never goes back"
        );
        prop_assert!(event.time.0 <= scenario.end_ms.0);
        prop_assert_eq!(
            event.broke.minus(event.violated),
            Default::default(),
            "what breaks is violated"
        );
        previous = Some(event.time);
    }
    for pair in sim.trace().windows(2) {
        for invariant in pair[0].violated.iter().filter(|i| i.is_history()) {
            prop_assert!(
                pair[1].violated.contains(invariant),
                "{} latches",
                invariant
            );
        }
    }
    Ok(())
}

fn consensus_keeps_exclusion(scenario: &Scenario) -> Result<(), TestCaseError> {
    let mut sim = Sim::new(scenario).expect("generated scenarios are valid");
    sim.run_to_end();
    let mut leading = vec![false; sim.cast().len()];
    leading[0] = true;
    for event in sim.trace() {
        match event.happening {
            Happening::BecameLeader { node, .. } => leading[node.index()] = true,
            Happening::SteppedDown { node, .. } => {
                prop_assert!(
                    leading[node.index()],
                    "stepped down twice without an election, event {}:\n{}",
                    event.id,
                    trace_text(&sim)
                );
                leading[node.index()] = false;
            }
            _ => {}
        }
    }
    if let Err(broken) = tokens_told_increase(&sim)
        .and_then(|()| data_holds(scenario, &sim))
        .and_then(|()| every_answer_is_told(&sim))
    {
        return Err(TestCaseError::fail(format!(
            "{broken}\n{}",
            trace_text(&sim)
        )));
    }
    for event in sim.trace() {
        for invariant in [Invariant::OneLease, Invariant::TokensIncrease] {
            prop_assert!(
                !event.violated.contains(invariant),
                "{} broken at event {}:\n{}",
                invariant,
                event.id,
                trace_text(&sim)
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(cases::config(Cases { test: 512, soak: 512 }, file!()))]

    #[test]
    fn mangled_catalogue_files_fail_with_a_message_not_a_panic(
        which in 0..catalogue::BUILT_IN.len(),
        cut in any::<prop::sample::Index>(),
        insert in ".{0,12}",
    ) {
        let json = catalogue::BUILT_IN[which].json;
        let at = cut.index(json.len() + 1);
        let at = (0..=at).rev().find(|&i| json.is_char_boundary(i)).unwrap_or(0);
        let mangled = format!("{}{}{}", &json[..at], insert, &json[at..]);
        if let Err(error) = Scenario::parse(&mangled) {
            prop_assert!(!error.to_string().is_empty());
        }
    }
}
