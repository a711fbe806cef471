//! The plan's types: what a real run plays, per service and per client, in real milliseconds.

use super::unsupported::Unmade;
use crate::etcd::EtcdRelease;
use lockstep_sim::models::client::{RedlockParams, SafetyClock};
use lockstep_sim::models::lock_service::TokenSource;
use lockstep_sim::vocabulary::happening::Direction;
use lockstep_sim::vocabulary::message::ReleaseMethod;

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
    /// The faults made on the lock service and the clients' links, and those not made.
    pub faults: ServiceFaults,
    pub fencing: RealFencing,
    pub initial_value: i64,
    pub clients: Vec<ClientPlan>,
}

/// The scenario's faults as this runner makes them on the lock service and the clients'
/// links (a client's own pauses and crash are in its [`ClientPlan`]), and those it cannot make.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServiceFaults {
    /// Crashes of a lock service node: when, and which (a Redis primary, killed and failed
    /// over; a Redlock node, killed).
    pub crashes: Vec<(u64, String)>,
    /// Restarts of a crashed Redlock node, empty, on its port: when (after the scenario's
    /// restart delay), and which.
    pub restarts: Vec<(u64, String)>,
    /// Pauses of a Redlock node or an etcd member, its process stopped (`SIGSTOP`): when, which,
    /// and how long.
    pub server_pauses: Vec<(u64, String, u64)>,
    /// Links cut between a client and a lock service node: when, the client, the node, and
    /// whether only the client's messages are lost or both ways.
    pub cuts: Vec<(u64, String, String, Direction)>,
    /// Jumps of a lock service node's wall clock: when, the node, by how much.
    pub clock_jumps: Vec<(u64, String, i64)>,
    /// The scenario's faults this runner cannot make, which the run goes without.
    pub unmade: Vec<Unmade>,
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
    pub(super) fn of(source: TokenSource, last: u64) -> RealTokens {
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
