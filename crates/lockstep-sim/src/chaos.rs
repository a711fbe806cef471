//! Chaos runs: generated scenarios in which many clients contend for the lock over and over
//! while processes pause and the network splits — the article's third verification test
//! ("maintains at most one holder under chaos", judged in [`crate::verification`]), and the
//! load for the benchmark.
//!
//! Generation draws from its own `SimRng` stream, so the same [`Chaos`] always yields the same
//! scenario, and the scenario's own seed then drives the run.

use crate::client::{
    Access, ElapsedCheck, LeaseCheck, LocalDeadline, Locking, Renewal, Repeat, RequestTimeout,
    RetryPolicy,
};
use crate::happening::Direction;
use crate::intervention::{Action, Intervention};
use crate::lock_service::{KnownBug, Persistence, Waiting};
use crate::message::ReleaseMethod;
use crate::resource::Fencing;
use crate::rng::SimRng;
use crate::scenario::{
    ClientSpec, ConsensusSystem, LockServiceSpec, NetworkSpec, RESOURCE_NAME, ResourceSpec,
    Scenario,
};
use crate::sources::Citation;
use crate::time::{Millis, VirtualTime};

/// How often a fault of one kind strikes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultRate {
    Never,
    /// About once per `mean_gap_ms` (uniform in `0..=2 × mean_gap_ms` between strikes).
    Every {
        mean_gap_ms: Millis,
    },
}

/// The shape of a chaos run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chaos {
    pub seed: u64,
    pub backend: ChaosBackend,
    pub clients: usize,
    pub duration: Millis,
    pub fencing: Fencing,
    pub pauses: FaultRate,
    pub partitions: FaultRate,
}

/// Which lock service the chaos runs against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChaosBackend {
    /// The article's SQL row.
    SqlRow,
    /// Redlock over five independent cache nodes.
    Redlock,
    /// A three-replica consensus service.
    Consensus,
}

impl ChaosBackend {
    /// The lock service as a scenario describes it.
    pub fn spec(self) -> LockServiceSpec {
        match self {
            ChaosBackend::SqlRow => LockServiceSpec::SqlRow {
                lock_name: "resource-x".to_owned(),
                last_token: 0,
            },
            ChaosBackend::Redlock => LockServiceSpec::Redlock {
                nodes: 5,
                persistence: Persistence::None,
                restart_delay_ms: Millis(0),
                elapsed_check: ElapsedCheck::On,
                node_timeout_ms: Millis(50),
            },
            ChaosBackend::Consensus => LockServiceSpec::Consensus {
                system: ConsensusSystem::Etcd,
                replicas: 3,
                heartbeat_ms: Millis(100),
                election_timeout_ms: Millis(500),
                lock_delay_ms: Millis(0),
                waiters: Waiting::FairQueue,
                bug: KnownBug::None,
            },
        }
    }
}

const TTL_MS: u64 = 1_000;

impl Chaos {
    /// The article's chaos test: 180 000 virtual ms, 8 clients, pauses and partitions, against
    /// the article's SQL row (`with_backend` changes that).
    pub fn verification_test(seed: u64, fencing: Fencing) -> Chaos {
        Chaos {
            seed,
            backend: ChaosBackend::SqlRow,
            clients: 8,
            duration: Millis(180_000),
            fencing,
            pauses: FaultRate::Every {
                mean_gap_ms: Millis(1_500),
            },
            partitions: FaultRate::Every {
                mean_gap_ms: Millis(3_000),
            },
        }
    }

    pub fn with_backend(self, backend: ChaosBackend) -> Chaos {
        Chaos { backend, ..self }
    }

    pub fn scenario(&self) -> Scenario {
        let mut rng = SimRng::from_seed(self.seed ^ 0x6368_616f_735f_676e);
        let names: Vec<String> = (0..self.clients)
            .map(|i| format!("client-{}", i + 1))
            .collect();
        let service_names = self.backend.spec().node_names();
        let clients = names
            .iter()
            .map(|name| ClientSpec {
                name: name.clone(),
                start_ms: Millis(rng.between(0, 200)),
                locking: Locking::Lease,
                ttl_ms: Millis(TTL_MS),
                work_ms: Millis(rng.between(50, 400)),
                access: Access::ReadModifyWrite {},
                retry: RetryPolicy::Random {
                    max_delay_ms: Millis(300),
                    attempts: 5,
                },
                release: ReleaseMethod::IfStillMine,
                lease_check: LeaseCheck::Never {},
                renewal: Renewal::Never {},
                repeat: Repeat::Every {
                    interval_ms: Millis(rng.between(50, 250)),
                },
                timeout: RequestTimeout::After { ms: Millis(200) },
                local_deadline: LocalDeadline::Never {},
            })
            .collect();
        let mut interventions = Vec::new();
        let end = self.duration.0;
        let pick = |rng: &mut SimRng, names: &[String]| {
            let last = u64::try_from(names.len().saturating_sub(1)).unwrap_or(0);
            names[usize::try_from(rng.between(0, last)).unwrap_or(0)].clone()
        };
        if let FaultRate::Every { mean_gap_ms } = self.pauses {
            let mut at = rng.between(0, 2 * mean_gap_ms.0);
            while at < end && !names.is_empty() {
                interventions.push(Intervention {
                    at_ms: VirtualTime(at),
                    action: Action::Pause {
                        node: pick(&mut rng, &names),
                        for_ms: Some(Millis(rng.between(100, 3 * TTL_MS))),
                    },
                });
                at += 1 + rng.between(0, 2 * mean_gap_ms.0);
            }
        }
        if let FaultRate::Every { mean_gap_ms } = self.partitions {
            let mut at = rng.between(0, 2 * mean_gap_ms.0);
            while at < end && !names.is_empty() {
                let client = pick(&mut rng, &names);
                let other = if rng.chance(500_000) {
                    pick(&mut rng, &service_names)
                } else {
                    RESOURCE_NAME.to_owned()
                };
                let heal_at = (at + rng.between(100, 3 * TTL_MS)).min(end);
                interventions.push(Intervention {
                    at_ms: VirtualTime(at),
                    action: Action::Partition {
                        from: client.clone(),
                        to: other.clone(),
                        direction: Direction::Both,
                    },
                });
                interventions.push(Intervention {
                    at_ms: VirtualTime(heal_at),
                    action: Action::Heal {
                        a: client,
                        b: other,
                    },
                });
                at += 1 + rng.between(0, 2 * mean_gap_ms.0);
            }
        }
        interventions.sort_by_key(|i| i.at_ms);
        Scenario {
            format: crate::scenario::FORMAT_VERSION,
            id: format!("chaos-{}", self.seed),
            title: format!("Chaos: {} clients, {} ms", self.clients, self.duration.0),
            summary:
                "Clients contend for the lock again and again while processes pause and links fail."
                    .to_owned(),
            sources: vec![Citation {
                source: "the-article".to_owned(),
                at: "§ Verification, the test \"maintains at most one holder under chaos\""
                    .to_owned(),
            }],
            seed: self.seed,
            end_ms: self.duration,
            lock_service: self.backend.spec(),
            resource: ResourceSpec::Register {
                fencing: self.fencing,
                initial_value: 0,
            },
            network: NetworkSpec {
                latency_ms: [1, 20],
                loss_per_million: 1_000,
                links: Vec::new(),
            },
            clients,
            clocks: Vec::new(),
            interventions,
            expectations: Vec::new(),
        }
    }
}
