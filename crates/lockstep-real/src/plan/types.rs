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

    /// Whether its tokens are numbered by a store that counts every write (etcd's create
    /// revisions): only their order can match the simulation's, whose revisions count the
    /// lock keys' puts alone.
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
    /// When `length` ms of the client's work that start at `from_ms` are handled, and the
    /// pauses that fall in them (start, length), as the simulation plays a pause: the work's end
    /// is due at `from_ms + length` whether or not the client is paused (its timer runs on the
    /// world's time, and a pause stops the process, not the world), and a client paused then
    /// handles it when the pause ends; so what follows the work goes at the later of the two.
    /// A pause at the very millisecond the work ends comes first (the simulation queues a
    /// planned pause before the node's own input at the same time). A pause that begins while
    /// another lasts is no pause of its own (the simulation's `AlreadyPaused`): it is left out,
    /// and said as not made.
    pub fn busy(&self, from_ms: u64, length: u64) -> Busy {
        let mut pauses: Vec<(u64, u64)> = self.pauses.clone();
        pauses.sort_unstable();
        let mut busy = Busy {
            end_ms: from_ms + length,
            pauses: Vec::new(),
        };
        let mut paused_until = 0;
        for (at, for_ms) in pauses {
            if at < from_ms || at > busy.end_ms || at < paused_until {
                continue;
            }
            paused_until = at + for_ms;
            busy.end_ms = busy.end_ms.max(paused_until);
            busy.pauses.push((at, for_ms));
        }
        busy
    }
}

/// A stretch of a client's work as it plays out: when it is handled, and the pauses in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Busy {
    /// When the work's end is handled: when it is due, or when the pause it fell in ends.
    pub end_ms: u64,
    /// The pauses made in it (start, length), by their start.
    pub pauses: Vec<(u64, u64)>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::vocabulary::message::ReleaseMethod;

    fn paused(pauses: &[(u64, u64)]) -> ClientPlan {
        ClientPlan {
            name: "client-a".to_owned(),
            start_ms: 0,
            ttl_ms: 1000,
            work_ms: 200,
            access: RealAccess::ReadModifyWrite,
            release: ReleaseMethod::IfStillMine,
            retry: None,
            pauses: pauses.to_vec(),
            lease_check: None,
            renewals: None,
            timeout_ms: None,
            resource_lag_ms: None,
            crash_ms: None,
        }
    }

    #[test]
    fn work_that_ends_during_a_pause_is_handled_when_the_pause_ends() {
        // S2: 200 ms of work from 24 ms, a pause of 2,000 ms at 50 ms: the write goes at
        // 2,050 ms, as the simulation's (golden trace, event 19), not at 2,224 ms.
        let busy = paused(&[(50, 2000)]).busy(24, 200);
        assert_eq!(busy.end_ms, 2050);
        assert_eq!(busy.pauses, [(50, 2000)]);
    }

    #[test]
    fn a_pause_that_ends_before_the_work_does_not_stretch_it() {
        let busy = paused(&[(50, 100)]).busy(24, 200);
        assert_eq!(busy.end_ms, 224);
        assert_eq!(busy.pauses, [(50, 100)]);
    }

    #[test]
    fn a_pause_at_the_millisecond_the_work_ends_comes_first() {
        let busy = paused(&[(224, 100)]).busy(24, 200);
        assert_eq!(busy.end_ms, 324);
    }

    #[test]
    fn pauses_outside_the_work_or_inside_another_pause_are_not_its_own() {
        let busy = paused(&[(10, 1000), (300, 50), (60, 500), (50, 100)]).busy(24, 200);
        // (10, …) began before the work; (60, …) began during the pause at 50; (300, …) after
        // the work was handled at 224.
        assert_eq!(busy.pauses, [(50, 100)]);
        assert_eq!(busy.end_ms, 224);
    }

    #[test]
    fn a_pause_in_a_gap_of_zero_is_made_at_its_millisecond() {
        let busy = paused(&[(700, 10_000)]).busy(700, 0);
        assert_eq!((busy.end_ms, busy.pauses.len()), (10_700, 1));
    }
}
