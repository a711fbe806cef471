//! One checked run's scenario: a setup's mechanism, the frame of faults drawn for a seed, and
//! clients that take the lock, work and come back. The frame (how long the run lasts, which
//! faults strike when, how hard) comes from the setup as the user wrote it, and the faults draw
//! from their own `SimRng` stream before the clients do: a candidate change re-runs the same
//! seeds with exactly the same faults. It must not run or judge anything.

use super::mapping::Mechanism;
use super::setup::{LockSetup, Possible};
use crate::models::client::{Access, LocalDeadline, Repeat, RequestTimeout, RetryPolicy};
use crate::scenario::source::ScenarioSource;
use crate::scenario::sources::Citation;
use crate::scenario::types::{ClientSpec, NetworkSpec, RESOURCE_NAME, ResourceSpec, Scenario};
use crate::vocabulary::happening::Direction;
use crate::world::intervention::{Action, Intervention};
use crate::world::rng::SimRng;
use crate::world::time::{Millis, VirtualTime};

/// How many times the longest of TTL, worst work and pause a run lasts.
const RUN_LENGTHS: u64 = 10;

/// What stays fixed across a setup and its candidate changes: the user's magnitudes and which
/// faults can happen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub duration: Millis,
    pub ttl: Millis,
    pub longest_pause: Millis,
    pub clients: u8,
    pub partitions: Possible,
    pub clock_steps: Possible,
    pub crashes: Possible,
    pub typical_work: Millis,
    pub worst_work: Millis,
    pub retries: u32,
    pub max_retry_delay: Millis,
}

impl Frame {
    pub fn of(setup: &LockSetup) -> Frame {
        let longest = setup
            .ttl_ms
            .0
            .max(setup.work_ms.worst.0)
            .max(setup.longest_pause_ms.0);
        Frame {
            duration: Millis(RUN_LENGTHS * longest + 1_000),
            ttl: setup.ttl_ms,
            longest_pause: setup.longest_pause_ms,
            clients: setup.clients,
            partitions: setup.partitions,
            clock_steps: setup.clock_steps,
            crashes: setup.crashes,
            typical_work: setup.work_ms.typical,
            worst_work: setup.work_ms.worst,
            retries: setup.retries.attempts,
            max_retry_delay: setup.retries.max_delay_ms,
        }
    }

    /// The scenario of the run with this seed, with `mechanism` (the setup's or a candidate's).
    pub fn scenario(&self, mechanism: &Mechanism, seed: u64) -> Scenario {
        let mut fault_rng = SimRng::from_seed(seed ^ 0x7365_7475_705f_6661);
        let mut client_rng = SimRng::from_seed(seed ^ 0x7365_7475_705f_636c);
        let names: Vec<String> = (1..=self.clients).map(|i| format!("client-{i}")).collect();
        let service = mechanism.service.node_names();
        let mut interventions = self.faults(&mut fault_rng, &names, &service);
        interventions.sort_by_key(|i| i.at_ms);
        let clients = names
            .iter()
            .enumerate()
            .map(|(index, name)| self.client(mechanism, name, index, &mut client_rng))
            .collect();
        Scenario {
            format: crate::scenario::version::FORMAT_VERSION,
            id: format!("lock-setup-{seed}"),
            title: format!("Your lock: run {seed}"),
            summary: "Clients take your lock, work and come back, while the faults your setup \
                      allows strike at random moments, with your magnitudes."
                .to_owned(),
            sources: vec![ScenarioSource::Cited(Citation {
                source: "the-article".to_owned(),
                at: "§ Design Checklist".to_owned(),
            })],
            seed,
            end_ms: self.duration,
            lock_service: mechanism.service.clone(),
            resource: mechanism.resource.clone(),
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

    fn client(
        &self,
        mechanism: &Mechanism,
        name: &str,
        index: usize,
        rng: &mut SimRng,
    ) -> ClientSpec {
        // One job in ten takes between the typical and the worst time.
        let work = if rng.chance(100_000) {
            rng.between(self.typical_work.0, self.worst_work.0)
        } else {
            self.typical_work.0
        };
        let interval = rng.between(self.ttl.0 / 4, self.ttl.0.max(4));
        let mut access = mechanism.access;
        // A payment is one charge per client, each with its own key.
        let repeat = match &mut access {
            Access::Charge { key, .. } => {
                *key = u32::try_from(index + 1).unwrap_or(u32::MAX);
                Repeat::Once {}
            }
            _ => Repeat::Every {
                interval_ms: Millis(interval.max(1)),
            },
        };
        ClientSpec {
            name: name.to_owned(),
            start_ms: Millis(rng.between(0, 200)),
            locking: mechanism.locking,
            ttl_ms: mechanism.ttl,
            work_ms: Millis(work),
            access,
            retry: if self.retries == 0 {
                RetryPolicy::GiveUp {}
            } else {
                RetryPolicy::Random {
                    max_delay_ms: self.max_retry_delay,
                    attempts: self.retries,
                }
            },
            release: mechanism.release,
            lease_check: mechanism.lease_check,
            renewal: mechanism.renewal,
            repeat,
            timeout: RequestTimeout::After { ms: Millis(200) },
            local_deadline: LocalDeadline::Never {},
        }
    }

    /// Every fault of one run: pauses always (up to the user's longest), the rest as allowed.
    /// Strikes name nodes by position, so a candidate with another service gets the same draws.
    fn faults(
        &self,
        rng: &mut SimRng,
        clients: &[String],
        service: &[String],
    ) -> Vec<Intervention<String>> {
        let mut out = Vec::new();
        let end = self.duration.0;
        let long = 2 * self.ttl.0.max(100);
        let strikes = |rng: &mut SimRng, per_run: u64| strike_times(rng, end, per_run);
        if self.longest_pause.0 > 0 {
            for at in strikes(rng, 8) {
                let node = pick(rng, clients);
                let low = (self.longest_pause.0 / 4).max(1);
                let for_ms = Millis(rng.between(low, self.longest_pause.0.max(low)));
                out.push(at_ms(
                    at,
                    Action::Pause {
                        node,
                        for_ms: Some(for_ms),
                    },
                ));
            }
        }
        if self.partitions == Possible::Yes {
            for at in strikes(rng, 6) {
                let client = pick(rng, clients);
                let other = if rng.chance(500_000) {
                    pick(rng, service)
                } else {
                    RESOURCE_NAME.to_owned()
                };
                let heal = (at + rng.between(100, long)).min(end);
                out.push(at_ms(
                    at,
                    Action::Partition {
                        from: client.clone(),
                        to: other.clone(),
                        direction: Direction::Both,
                    },
                ));
                out.push(at_ms(
                    heal,
                    Action::Heal {
                        a: client,
                        b: other,
                    },
                ));
            }
        }
        if self.clock_steps == Possible::Yes {
            for at in strikes(rng, 6) {
                let node = if rng.chance(500_000) {
                    pick(rng, service)
                } else {
                    pick(rng, clients)
                };
                let size = i64::try_from(rng.between(200, long)).unwrap_or(0);
                let by_ms = if rng.chance(750_000) { size } else { -size };
                out.push(at_ms(at, Action::ClockJump { node, by_ms }));
            }
        }
        if self.crashes == Possible::Yes {
            for at in strikes(rng, 6) {
                let node = pick(rng, service);
                let restart = (at + rng.between(200, long)).min(end);
                out.push(at_ms(at, Action::Crash { node: node.clone() }));
                out.push(at_ms(restart, Action::Restart { node }));
            }
        }
        out
    }
}

/// When one fault kind strikes in a run of `end` ms: about `per_run` times, at random gaps.
fn strike_times(rng: &mut SimRng, end: u64, per_run: u64) -> Vec<u64> {
    let gap = (end / per_run).max(1);
    let mut times = Vec::new();
    let mut at = rng.between(0, 2 * gap);
    while at < end {
        times.push(at);
        at += 1 + rng.between(0, 2 * gap);
    }
    times
}

fn at_ms(at: u64, action: Action<String>) -> Intervention<String> {
    Intervention {
        at_ms: VirtualTime(at),
        action,
    }
}

fn pick(rng: &mut SimRng, names: &[String]) -> String {
    let last = u64::try_from(names.len().saturating_sub(1)).unwrap_or(0);
    names
        .get(usize::try_from(rng.between(0, last)).unwrap_or(0))
        .cloned()
        .unwrap_or_default()
}

/// Whether a resource keeps data a reader could check for lost increments.
pub fn is_register(resource: &ResourceSpec) -> bool {
    matches!(resource, ResourceSpec::Register { .. })
}
