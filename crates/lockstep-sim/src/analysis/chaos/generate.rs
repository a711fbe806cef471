//! One chaos run's scenario: settings plus a seed. Many clients contend for the lock over and
//! over while the chosen faults strike at random moments. Generation draws from its own
//! `SimRng` stream, so the same settings and seed always yield the same scenario, and the
//! scenario's own seed then drives the run. Each fault kind draws in [`FaultKind::ALL`]'s order
//! (decision 17): pauses, then partitions, so the article's test draws the pauses and partitions
//! it always has, and the crashes that fail its lock service over come after them.

use super::backend::ChaosBackend;
use super::faults::FaultKind;
use super::settings::ChaosSettings;
use crate::models::client::{
    Access, LeaseCheck, LocalDeadline, Locking, Renewal, Repeat, RequestTimeout, RetryPolicy,
};
use crate::models::resource::{Fencing, TokenMemory};
use crate::scenario::source::ScenarioSource;
use crate::scenario::sources::Citation;
use crate::scenario::types::ClientSpec;
use crate::scenario::types::NetworkSpec;
use crate::scenario::types::RESOURCE_NAME;
use crate::scenario::types::ResourceSpec;
use crate::scenario::types::Scenario;
use crate::vocabulary::happening::Direction;
use crate::vocabulary::message::ReleaseMethod;
use crate::world::intervention::{Action, Intervention};
use crate::world::rng::SimRng;
use crate::world::time::{Millis, VirtualTime};

/// The lease every client asks for.
const TTL_MS: u64 = 1_000;

/// One chaos run: its settings and the seed that generates (and then drives) it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chaos {
    pub seed: u64,
    pub settings: ChaosSettings,
}

impl Chaos {
    /// The article's chaos test with this seed: 180,000 virtual ms, 8 clients, pauses,
    /// partitions and the lock service's failover, against the article's SQL row
    /// (`with_backend` changes that).
    pub fn verification_test(seed: u64, fencing: Fencing) -> Chaos {
        Chaos {
            seed,
            settings: ChaosSettings::verification_test(fencing),
        }
    }

    pub fn with_backend(self, backend: ChaosBackend) -> Chaos {
        Chaos {
            settings: self.settings.with_backend(backend),
            ..self
        }
    }

    pub fn scenario(&self) -> Scenario {
        let settings = &self.settings;
        let mut rng = SimRng::from_seed(self.seed ^ 0x6368_616f_735f_676e);
        let names: Vec<String> = (0..settings.clients.get())
            .map(|i| format!("client-{}", i + 1))
            .collect();
        let service = settings.backend.spec();
        let service_names = service.node_names();
        let clients = names.iter().map(|name| client(name, &mut rng)).collect();
        let faults = Faults {
            end: settings.duration.0,
            clients: &names,
            service: &service_names,
        };
        let mut interventions = Vec::new();
        for kind in settings.faults.iter() {
            faults.strike(kind, &mut rng, &mut interventions);
        }
        interventions.sort_by_key(|i| i.at_ms);
        Scenario {
            format: crate::scenario::version::FORMAT_VERSION,
            id: format!("chaos-{}", self.seed),
            title: format!(
                "Chaos: {} clients, {} ms",
                settings.clients.get(),
                settings.duration.0
            ),
            summary: summary(settings),
            sources: vec![ScenarioSource::Cited(Citation {
                source: "the-article".to_owned(),
                at: "§ Verification, the test \"maintains at most one holder under chaos\""
                    .to_owned(),
            })],
            seed: self.seed,
            end_ms: settings.duration,
            lock_service: service,
            resource: ResourceSpec::Register {
                fencing: settings.fencing,
                initial_value: 0,
                token_memory: TokenMemory::Durable,
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

impl ChaosSettings {
    /// The scenario of the run with this seed: valid, and replayable as a scenario file.
    pub fn scenario(&self, seed: u64) -> Scenario {
        Chaos {
            seed,
            settings: *self,
        }
        .scenario()
    }
}

/// A client that takes the lock, increments the register and lets go, again and again.
fn client(name: &str, rng: &mut SimRng) -> ClientSpec {
    ClientSpec {
        name: name.to_owned(),
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
    }
}

/// "Clients contend … while processes pause and links fail."
fn summary(settings: &ChaosSettings) -> String {
    let phrases: Vec<&str> = settings
        .faults
        .iter()
        .map(|kind| match kind {
            FaultKind::Pauses => "processes pause",
            FaultKind::Partitions => "links fail",
            FaultKind::ClockJumps => "clocks jump",
            FaultKind::Crashes => "lock-service nodes crash",
        })
        .collect();
    match phrases.split_last() {
        None => "Clients contend for the lock again and again, with no faults.".to_owned(),
        Some((last, [])) => {
            format!("Clients contend for the lock again and again while {last}.")
        }
        Some((last, rest)) => format!(
            "Clients contend for the lock again and again while {} and {last}.",
            rest.join(", ")
        ),
    }
}

/// Where faults can land in one run.
struct Faults<'a> {
    end: u64,
    clients: &'a [String],
    service: &'a [String],
}

impl Faults<'_> {
    /// Adds the strikes of one fault kind, about once per its mean gap until the run ends.
    fn strike(&self, kind: FaultKind, rng: &mut SimRng, out: &mut Vec<Intervention<String>>) {
        let gap = kind.mean_gap().0;
        let mut at = rng.between(0, 2 * gap);
        while at < self.end && !self.clients.is_empty() {
            match kind {
                FaultKind::Pauses => out.push(Intervention {
                    at_ms: VirtualTime(at),
                    action: Action::Pause {
                        node: pick(rng, self.clients),
                        for_ms: Some(Millis(rng.between(100, 3 * TTL_MS))),
                    },
                }),
                FaultKind::Partitions => {
                    let client = pick(rng, self.clients);
                    let other = if rng.chance(500_000) {
                        pick(rng, self.service)
                    } else {
                        RESOURCE_NAME.to_owned()
                    };
                    let heal_at = (at + rng.between(100, 3 * TTL_MS)).min(self.end);
                    out.push(Intervention {
                        at_ms: VirtualTime(at),
                        action: Action::Partition {
                            from: client.clone(),
                            to: other.clone(),
                            direction: Direction::Both,
                        },
                    });
                    out.push(Intervention {
                        at_ms: VirtualTime(heal_at),
                        action: Action::Heal {
                            a: client,
                            b: other,
                        },
                    });
                }
                FaultKind::ClockJumps => {
                    // Half the jumps hit a lock-service node (whose clock expires leases), half
                    // a client (whose clock times its own lease); three in four go forwards.
                    let node = if rng.chance(500_000) {
                        pick(rng, self.service)
                    } else {
                        pick(rng, self.clients)
                    };
                    let size = i64::try_from(rng.between(200, 3 * TTL_MS)).unwrap_or(0);
                    let by_ms = if rng.chance(750_000) { size } else { -size };
                    out.push(Intervention {
                        at_ms: VirtualTime(at),
                        action: Action::ClockJump { node, by_ms },
                    });
                }
                FaultKind::Crashes => {
                    let node = pick(rng, self.service);
                    let restart_at = (at + rng.between(200, 3 * TTL_MS)).min(self.end);
                    out.push(Intervention {
                        at_ms: VirtualTime(at),
                        action: Action::Crash { node: node.clone() },
                    });
                    out.push(Intervention {
                        at_ms: VirtualTime(restart_at),
                        action: Action::Restart { node },
                    });
                }
            }
            at += 1 + rng.between(0, 2 * gap);
        }
    }
}

fn pick(rng: &mut SimRng, names: &[String]) -> String {
    let last = u64::try_from(names.len().saturating_sub(1)).unwrap_or(0);
    names
        .get(usize::try_from(rng.between(0, last)).unwrap_or(0))
        .cloned()
        .unwrap_or_default()
}
