//! What each client of a scenario does, and when, as a real run plays it: take the lock with
//! the client's lease (trying again as its retry policy says), read the resource if it writes
//! what it read plus one, work (stretched by any pause that falls in it, as a stop-the-world
//! garbage collection stretches it), write with its token, and release the lock as it says.
//! Only the shapes this runner can make for real are accepted; anything else is refused with
//! what it is (`unsupported.rs`), so that no run pretends to be the scenario it is not. The
//! scenario's faults and slow links become the plan's in `interventions.rs`; a fault it cannot
//! make is named there, and the run goes without it.

mod interventions;
mod unsupported;

use interventions::{Faults, faults, slow_links};

pub use unsupported::{Unmade, Unsupported};

use crate::etcd::EtcdRelease;
use lockstep_sim::Scenario;
use lockstep_sim::analysis::against::service_of;
use lockstep_sim::models::client::{
    Access, LeaseCheck, LocalDeadline, Locking, RedlockParams, Renewal, Repeat, RequestTimeout,
    RetryPolicy, SafetyClock,
};
use lockstep_sim::models::lock_service::{KnownBug, TokenSource, Waiting};
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::types::{ClientSpec, ConsensusSystem, LockServiceSpec, ResourceSpec};
use lockstep_sim::vocabulary::happening::Direction;
use lockstep_sim::vocabulary::message::ReleaseMethod;
use lockstep_sim::world::time::Millis;
/// A scenario as a real run plays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The scenario's id and title.
    pub scenario: String,
    pub title: String,
    /// The scenario's names for its lock service (its first node) and its resource, which a
    /// recorded history's lanes take.
    pub lock_service_name: String,
    pub resource_name: String,
    /// Every node of the lock service, by the scenario's names (the primary first).
    pub service_names: Vec<String>,
    pub service: ServicePlan,
    /// Crashes of a lock service node: when, and which (a Redis primary, killed and failed
    /// over; a Redlock node, killed).
    pub crashes: Vec<(u64, String)>,
    /// Restarts of a crashed Redlock node, empty, on its port: when (after the scenario's
    /// restart delay), and which.
    pub restarts: Vec<(u64, String)>,
    /// Links cut between a client and a lock service node: when, the client, the node, and
    /// whether only the client's messages are lost or both ways.
    pub cuts: Vec<(u64, String, String, Direction)>,
    /// Jumps of a lock service node's wall clock: when, the node, by how much.
    pub clock_jumps: Vec<(u64, String, i64)>,
    /// The scenario's faults this runner cannot make, which the run goes without.
    pub unmade: Vec<Unmade>,
    pub fencing: RealFencing,
    pub initial_value: i64,
    pub clients: Vec<ClientPlan>,
}

/// The lock service, as the real one is set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServicePlan {
    /// The article's `distributed_locks` row in PostgreSQL; `last_token` is the row's token
    /// before the first grant.
    SqlRow { lock_name: String, last_token: u64 },
    /// One Redis: `SET key value NX PX ttl`.
    Cache { key: String, tokens: RealTokens },
    /// A Redis primary and its replica, replicating `lag_ms` late; the replica is promoted
    /// `failover_after_ms` after the primary crashes.
    ReplicatedCache {
        key: String,
        tokens: RealTokens,
        lag_ms: u64,
        failover_after_ms: u64,
    },
    /// Independent Redis nodes, one per name in `service_names`, locked by Redlock's majority.
    Redlock { key: String, params: RedlockParams },
    /// An etcd cluster of `release`, one member per name in `service_names`; each client takes a
    /// lease, keeps it alive and calls the lock API's `Lock` named `lock_name` with it.
    Etcd {
        lock_name: String,
        release: EtcdRelease,
    },
}

/// Whether a Redis lock hands out fencing tokens: none, or a counter beside the key that each
/// grant increments (`INCR`) in the same script as its `SET NX`, as the simulation's cache
/// does. The counter lives on the node like the key, so it replicates as late as the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RealTokens {
    None,
    /// The counter starts at `last`: the first grant's token is `last + 1`.
    Counter {
        last: u64,
    },
}

impl RealTokens {
    fn of(source: TokenSource, last: u64) -> RealTokens {
        match source {
            TokenSource::None => RealTokens::None,
            TokenSource::Counter => RealTokens::Counter { last },
        }
    }
}

impl ServicePlan {
    /// Its name in `lockstep-cli real --service` and in a recording's file name.
    pub fn id(&self) -> &'static str {
        match self {
            ServicePlan::SqlRow { .. } => "postgres",
            ServicePlan::Cache { .. } => "redis",
            ServicePlan::ReplicatedCache { .. } => "redis-failover",
            ServicePlan::Redlock { .. } => "redlock",
            ServicePlan::Etcd { .. } => "etcd",
        }
    }

    /// Whether its tokens are revisions of a store that counts every write (etcd): only their
    /// order can match the simulation's, whose revisions count the lock's writes alone.
    pub fn tokens_are_store_revisions(&self) -> bool {
        matches!(self, ServicePlan::Etcd { .. })
    }

    /// How many servers' grants make the lock: Redlock's majority, else one.
    pub fn quorum(&self) -> u32 {
        match self {
            ServicePlan::Redlock { params, .. } => u32::from(params.quorum()),
            _ => 1,
        }
    }
}

/// Whether the resource checks tokens: the highest-token rule in the write itself, or nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RealFencing {
    On,
    Off,
}

/// What a client writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RealAccess {
    /// Read the value, work, write it plus one.
    ReadModifyWrite,
    /// Work, then write this value without reading.
    BlindWrite(i64),
}

/// One client's program, in milliseconds from the run's start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientPlan {
    pub name: String,
    pub start_ms: u64,
    pub ttl_ms: u64,
    pub work_ms: u64,
    pub access: RealAccess,
    pub release: ReleaseMethod,
    /// Tries after the first when the lock is held elsewhere: (delay, how many).
    pub retry: Option<(u64, u32)>,
    /// Pauses of this client (start, length), in the scenario's order.
    pub pauses: Vec<(u64, u64)>,
    /// The article's `heldSafely()` just before the write, if the client makes it.
    pub lease_check: Option<RealLeaseCheck>,
    /// Renewals every TTL/3 from the grant (the article's `RenewingLock`), at most this many.
    pub renewals: Option<u32>,
    /// How long the client waits for an answer before it gives the request up (played on etcd
    /// only).
    pub timeout_ms: Option<u64>,
    /// How late what it sends reaches the resource, where the scenario's link from it to the
    /// resource is slow (S4's delayed packet).
    pub resource_lag_ms: Option<u64>,
    /// When it crashes, if it does: from then on it sends nothing, and an answer to a request
    /// it sent before is lost; what it sent is still on its way.
    pub crash_ms: Option<u64>,
}

/// A lease check before the write: write only if more than `margin_ms` of the lease is left by
/// the client's own clock, counted from the acquisition's answer (the article's) or from its
/// request's send (the corrected variant); the write follows the check `gap_ms` later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RealLeaseCheck {
    pub margin_ms: u64,
    pub gap_ms: u64,
    pub measure: SafetyClock,
}

impl ClientPlan {
    /// When `length` ms of the client's own time that start at `from_ms` really end: plus every
    /// pause that begins before they are done (a pause stops the client, not the world).
    pub fn busy_until(&self, from_ms: u64, length: u64) -> u64 {
        from_ms
            + length
            + self
                .pauses_in(from_ms, length)
                .map(|(_, length)| length)
                .sum::<u64>()
    }

    /// The pauses that fall in `length` ms of the client's time from `from_ms`, as
    /// [`Self::busy_until`] counts them.
    pub fn pauses_in(&self, from_ms: u64, length: u64) -> impl Iterator<Item = (u64, u64)> + '_ {
        let mut end = from_ms + length;
        self.pauses.iter().copied().filter(move |&(at, length)| {
            let inside = at >= from_ms && at < end;
            if inside {
                end += length;
            }
            inside
        })
    }
}

impl Plan {
    /// The plan of `scenario`, or why it cannot be played for real.
    pub fn of(scenario: &Scenario) -> Result<Plan, Unsupported> {
        let checked = scenario
            .check()
            .map_err(|e| Unsupported::Invalid(e.to_string()))?;
        let cast = checked.cast();
        let lock_service_name = cast.name(cast.lock_service()).to_owned();
        let service_names: Vec<String> = cast.services().map(|n| cast.name(n).to_owned()).collect();
        let resource_name = cast.name(cast.resource()).to_owned();
        let service = service_plan(&scenario.lock_service)?;
        let (fencing, initial_value) = resource_plan(&scenario.resource)?;
        if !scenario.clocks.is_empty() {
            return Err(Unsupported::Scenario("sets clocks apart"));
        }
        if scenario.network.loss_per_million > 0 {
            return Err(Unsupported::Scenario("loses messages"));
        }
        let mut clients = scenario
            .clients
            .iter()
            .map(|client| client_plan(client, &service))
            .collect::<Result<Vec<_>, _>>()?;
        slow_links(scenario, &resource_name, &mut clients)?;
        // A real run lasts until its clients are done; the simulation stops at the end.
        if let Some(late) = clients
            .iter()
            .find(|c| c.start_ms + c.work_ms > scenario.end_ms.0)
        {
            return Err(Unsupported::Policy {
                client: late.name.clone(),
                what: "is still working when the scenario ends",
            });
        }
        if let (ServicePlan::Redlock { .. }, Some(renewing)) =
            (&service, clients.iter().find(|c| c.renewals.is_some()))
        {
            return Err(Unsupported::Policy {
                client: renewing.name.clone(),
                what: "renews a Redlock lease",
            });
        }
        let Faults {
            crashes,
            restarts,
            cuts,
            clock_jumps,
            unmade,
        } = faults(scenario, &service, &service_names, &mut clients);
        Ok(Plan {
            scenario: scenario.id.clone(),
            title: scenario.title.clone(),
            lock_service_name,
            resource_name,
            service_names,
            service,
            crashes,
            restarts,
            cuts,
            clock_jumps,
            unmade,
            fencing,
            initial_value,
            clients,
        })
    }
}

fn service_plan(spec: &LockServiceSpec) -> Result<ServicePlan, Unsupported> {
    match spec {
        LockServiceSpec::SqlRow {
            lock_name,
            last_token,
        } => Ok(ServicePlan::SqlRow {
            lock_name: lock_name.clone(),
            last_token: *last_token,
        }),
        LockServiceSpec::Cache {
            key,
            tokens,
            last_token,
            ..
        } => Ok(ServicePlan::Cache {
            key: key.clone(),
            tokens: RealTokens::of(*tokens, *last_token),
        }),
        LockServiceSpec::ReplicatedCache {
            key,
            tokens,
            last_token,
            replication_lag_ms,
            failover_after_ms,
        } => Ok(ServicePlan::ReplicatedCache {
            key: key.clone(),
            tokens: RealTokens::of(*tokens, *last_token),
            lag_ms: replication_lag_ms.0,
            failover_after_ms: failover_after_ms.0,
        }),
        // A node that crashes and restarts (S11) is refused with the crash itself.
        LockServiceSpec::Redlock {
            nodes,
            elapsed_check,
            node_timeout_ms,
            ..
        } => Ok(ServicePlan::Redlock {
            key: "lock".to_owned(),
            params: RedlockParams {
                nodes: *nodes,
                elapsed_check: *elapsed_check,
                node_timeout: *node_timeout_ms,
            },
        }),
        // The bug on the release that still has it (Debian 12's 3.4.23), anything else on the
        // one that re-checks a waiter's key (Debian 13's 3.5.16): `etcd/release.rs`.
        LockServiceSpec::Consensus {
            system: ConsensusSystem::Etcd,
            lock_delay_ms: Millis(0),
            waiters: Waiting::FairQueue,
            bug,
            ..
        } => Ok(ServicePlan::Etcd {
            lock_name: "lockstep-lock".to_owned(),
            release: match bug {
                KnownBug::Etcd343 => EtcdRelease::Debian12,
                KnownBug::None => EtcdRelease::Debian13,
            },
        }),
        other => Err(Unsupported::LockService(
            service_of(other).label().to_owned(),
        )),
    }
}

fn resource_plan(spec: &ResourceSpec) -> Result<(RealFencing, i64), Unsupported> {
    let ResourceSpec::Register {
        fencing,
        initial_value,
        ..
    } = spec
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
    Ok((fencing, *initial_value))
}

fn client_plan(client: &ClientSpec, service: &ServicePlan) -> Result<ClientPlan, Unsupported> {
    let access = match client.access {
        Access::ReadModifyWrite {} => RealAccess::ReadModifyWrite,
        Access::BlindWrite { value } => RealAccess::BlindWrite(value),
        _ => {
            return Err(Unsupported::Access {
                client: client.name.clone(),
            });
        }
    };
    let policy = |what| Unsupported::Policy {
        client: client.name.clone(),
        what,
    };
    let retry = match client.retry {
        RetryPolicy::GiveUp {} => None,
        RetryPolicy::Fixed { delay_ms, attempts } => Some((delay_ms.0, attempts)),
        RetryPolicy::Random { .. } => return Err(policy("retries after random delays")),
    };
    let etcd = matches!(service, ServicePlan::Etcd { .. });
    if let Some(what) = unplayed_policy(client, etcd) {
        return Err(policy(what));
    }
    Ok(ClientPlan {
        name: client.name.clone(),
        start_ms: client.start_ms.0,
        ttl_ms: client.ttl_ms.0,
        work_ms: client.work_ms.0,
        access,
        release: client.release,
        retry,
        pauses: Vec::new(),
        resource_lag_ms: None,
        crash_ms: None,
        timeout_ms: match client.timeout {
            RequestTimeout::Never {} => None,
            RequestTimeout::After { ms } => Some(ms.0),
        },
        renewals: match client.renewal {
            Renewal::Never {} => None,
            Renewal::Every { max_renewals } => Some(max_renewals),
        },
        lease_check: match client.lease_check {
            LeaseCheck::Never {} => None,
            LeaseCheck::BeforeWrite {
                margin_ms,
                gap_ms,
                measure,
            } => Some(RealLeaseCheck {
                margin_ms: margin_ms.0,
                gap_ms: gap_ms.0,
                measure,
            }),
        },
    })
}

/// What of `client` differs from the client this runner plays (a lease, renewals that outlast
/// the work, no deadline, one job; no timeout, except on etcd, whose leases are whole
/// seconds), if anything.
fn unplayed_policy(client: &ClientSpec, etcd: bool) -> Option<&'static str> {
    let differs = [
        (client.locking != Locking::Lease, "goes without the lock"),
        // The renewals must outlast the work: a client that runs out of them abandons its
        // lock, which this runner does not play.
        (
            matches!(client.renewal, Renewal::Every { max_renewals }
                if u64::from(max_renewals) * (client.ttl_ms.0 / 3) < client.work_ms.0),
            "runs out of renewals before its work is done",
        ),
        (client.repeat != Repeat::Once {}, "repeats its job"),
        (
            !etcd && client.timeout != RequestTimeout::Never {},
            "times its requests out",
        ),
        (
            etcd && !client.ttl_ms.0.is_multiple_of(1000),
            "asks etcd for a lease that is not whole seconds",
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
