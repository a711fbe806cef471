//! What each client of a scenario does, and when, as a real run plays it: take the lock with
//! the client's lease, read the resource, work (stretched by any pause that falls in it, as a
//! stop-the-world garbage collection stretches it), then write back the value it read plus one
//! with its token. Only the shapes this runner can make for real are accepted; anything else
//! is refused with what it is, so that no run pretends to be the scenario it is not.

use lockstep_sim::Scenario;
use lockstep_sim::analysis::against::service_of;
use lockstep_sim::models::client::{
    Access, LeaseCheck, LocalDeadline, Locking, Renewal, Repeat, RequestTimeout, RetryPolicy,
};
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::types::{ClientSpec, LockServiceSpec, ResourceSpec};
use lockstep_sim::world::intervention::Action;
use std::fmt;

/// A scenario as a real run plays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub lock_name: String,
    /// The token the lock row holds before the first grant (the next grant is one more).
    pub last_token: u64,
    pub fencing: RealFencing,
    pub initial_value: i64,
    pub clients: Vec<ClientPlan>,
}

/// Whether the resource checks tokens: the highest-token rule in the write itself, or nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RealFencing {
    On,
    Off,
}

/// One client's program, in milliseconds from the run's start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientPlan {
    pub name: String,
    pub start_ms: u64,
    pub ttl_ms: u64,
    pub work_ms: u64,
    /// Pauses of this client (start, length), in the scenario's order.
    pub pauses: Vec<(u64, u64)>,
}

impl ClientPlan {
    /// How long the work that starts at `from_ms` really takes: its own length, plus every
    /// pause that begins before it is done (a pause stops the clock of the work, not the world).
    pub fn work_until(&self, from_ms: u64) -> u64 {
        let mut end = from_ms + self.work_ms;
        for &(at, length) in &self.pauses {
            if at >= from_ms && at < end {
                end += length;
            }
        }
        end
    }
}

/// Why a scenario cannot be played for real by this runner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unsupported {
    LockService(&'static str),
    Resource(&'static str),
    Access {
        client: String,
    },
    /// A client policy other than the default (retries, renewal, deadlines, …).
    Policy {
        client: String,
        what: &'static str,
    },
    /// Something of the whole scenario (clocks, the network's faults).
    Scenario(&'static str),
    Intervention {
        at_ms: u64,
        what: String,
    },
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unsupported::LockService(kind) => {
                write!(
                    f,
                    "the lock service is {kind}; this runner has the SQL row only"
                )
            }
            Unsupported::Resource(what) => write!(f, "the resource {what}"),
            Unsupported::Access { client } => write!(
                f,
                "{client} does not read, modify and write; this runner plays read_modify_write only"
            ),
            Unsupported::Policy { client, what } => write!(
                f,
                "{client} {what}; this runner plays a client that takes the lock once and gives up"
            ),
            Unsupported::Scenario(what) => write!(f, "the scenario {what}"),
            Unsupported::Intervention { at_ms, what } => write!(
                f,
                "the intervention at {at_ms} ms ({what}) cannot be made for real by this runner"
            ),
        }
    }
}

impl std::error::Error for Unsupported {}

impl Plan {
    /// The plan of `scenario`, or why it cannot be played for real.
    pub fn of(scenario: &Scenario) -> Result<Plan, Unsupported> {
        let LockServiceSpec::SqlRow {
            lock_name,
            last_token,
        } = &scenario.lock_service
        else {
            return Err(Unsupported::LockService(
                service_of(&scenario.lock_service).label(),
            ));
        };
        let ResourceSpec::Register {
            fencing,
            initial_value,
            ..
        } = &scenario.resource
        else {
            return Err(Unsupported::Resource("is not a register"));
        };
        let fencing = match fencing {
            Fencing::On => RealFencing::On,
            Fencing::Off => RealFencing::Off,
            Fencing::CheckAndSet | Fencing::Sequencer => {
                return Err(Unsupported::Resource("checks a claim or a sequencer"));
            }
        };
        let mut clients = Vec::new();
        if !scenario.clocks.is_empty() {
            return Err(Unsupported::Scenario("sets clocks apart"));
        }
        if scenario.network.loss_per_million > 0 || !scenario.network.links.is_empty() {
            return Err(Unsupported::Scenario("loses messages or sets links apart"));
        }
        for client in &scenario.clients {
            if !matches!(client.access, Access::ReadModifyWrite {}) {
                return Err(Unsupported::Access {
                    client: client.name.clone(),
                });
            }
            if let Some(what) = unplayed_policy(client) {
                return Err(Unsupported::Policy {
                    client: client.name.clone(),
                    what,
                });
            }
            clients.push(ClientPlan {
                name: client.name.clone(),
                start_ms: client.start_ms.0,
                ttl_ms: client.ttl_ms.0,
                work_ms: client.work_ms.0,
                pauses: Vec::new(),
            });
        }
        for intervention in &scenario.interventions {
            let at_ms = intervention.at_ms.0;
            let paused = match &intervention.action {
                Action::Pause {
                    node,
                    for_ms: Some(length),
                } => clients
                    .iter_mut()
                    .find(|c| &c.name == node)
                    .map(|c| c.pauses.push((at_ms, length.0))),
                _ => None,
            };
            if paused.is_none() {
                return Err(Unsupported::Intervention {
                    at_ms,
                    what: format!("{:?}", intervention.action),
                });
            }
        }
        Ok(Plan {
            lock_name: lock_name.clone(),
            last_token: *last_token,
            fencing,
            initial_value: *initial_value,
            clients,
        })
    }
}

/// What of `client` differs from the plain client this runner plays (one lease, no retry,
/// renewal, deadline or timeout, one job), if anything.
fn unplayed_policy(client: &ClientSpec) -> Option<&'static str> {
    let differs = [
        (client.locking != Locking::Lease, "goes without the lock"),
        (client.retry != RetryPolicy::GiveUp {}, "retries"),
        (client.renewal != Renewal::Never {}, "renews its lease"),
        (
            client.lease_check != LeaseCheck::Never {},
            "checks its lease",
        ),
        (client.repeat != Repeat::Once {}, "repeats its job"),
        (
            client.timeout != RequestTimeout::Never {},
            "times its requests out",
        ),
        (
            client.local_deadline != LocalDeadline::Never {},
            "keeps a local deadline",
        ),
    ];
    differs
        .into_iter()
        .find_map(|(yes, what)| yes.then_some(what))
}
