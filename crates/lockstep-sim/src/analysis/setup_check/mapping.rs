//! A setup in the simulator's terms: which lock service, resource, access and client options
//! model it. Only what the simulator can model is mapped; the rest was refused by
//! `LockSetup::validate`. It must not draw, generate faults or run.

use super::setup::{
    LeaseCheckSetup, LockSetup, Persistence, Release, RenewalSetup, Service, TokenUse, WriteKind,
};
use crate::models::client::{Access, ElapsedCheck, LeaseCheck, Locking, Renewal, SafetyClock};
use crate::models::lock_service::{KnownBug, Persistence as NodePersistence, TokenSource, Waiting};
use crate::models::resource::{Fencing, Idempotency, TokenMemory};
use crate::scenario::types::{ConsensusSystem, LockServiceSpec, ResourceSpec};
use crate::vocabulary::message::ReleaseMethod;
use crate::world::time::Millis;

/// How many renewals stand for a watchdog with no cap: more than any run can make.
const UNCAPPED_RENEWALS: u32 = 1_000_000;

/// The window between the lease check and the write it guards.
pub const CHECK_TO_WRITE_MS: Millis = Millis(5);

/// The stock a decrement takes from: more than any run can sell.
const STOCK: i64 = 1_000_000;

/// A setup in the simulator's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mechanism {
    pub service: LockServiceSpec,
    pub locking: Locking,
    pub resource: ResourceSpec,
    pub access: Access,
    pub release: ReleaseMethod,
    pub renewal: Renewal,
    pub lease_check: LeaseCheck,
    pub ttl: Millis,
}

impl Mechanism {
    /// The mechanism of a setup that `LockSetup::validate` accepted.
    pub fn of(setup: &LockSetup) -> Mechanism {
        Mechanism {
            service: service(&setup.service),
            locking: match setup.service {
                Service::NoLock => Locking::None,
                _ => Locking::Lease,
            },
            resource: resource(setup.resource, setup.write),
            access: access(setup.resource, setup.write),
            release: match setup.release {
                Release::CompareAndDelete => ReleaseMethod::IfStillMine,
                Release::Delete => ReleaseMethod::PlainDelete,
            },
            renewal: match setup.renewal {
                RenewalSetup::None => Renewal::Never {},
                RenewalSetup::Watchdog { max_renewals } => Renewal::Every {
                    max_renewals: max_renewals.unwrap_or(UNCAPPED_RENEWALS),
                },
            },
            lease_check: match setup.lease_check {
                LeaseCheckSetup::None => LeaseCheck::Never {},
                LeaseCheckSetup::BeforeWrite { margin_ms } => LeaseCheck::BeforeWrite {
                    margin_ms,
                    gap_ms: CHECK_TO_WRITE_MS,
                    measure: SafetyClock::FromLastRequest,
                },
            },
            ttl: setup.ttl_ms,
        }
    }

    /// Whether the resource refuses a write whose token is below the highest it has seen: then
    /// a stale write can land only in the fencing gap, before the newer holder's first write.
    pub fn fences(&self) -> bool {
        matches!(
            self.resource.fencing(),
            Some(Fencing::On | Fencing::Sequencer)
        )
    }
}

fn service(service: &Service) -> LockServiceSpec {
    let tokens = TokenSource::Counter;
    match *service {
        Service::Redis => LockServiceSpec::Cache {
            key: "resource-x".to_owned(),
            tokens,
            last_token: 0,
        },
        Service::RedisWithReplica {
            replication_lag_ms,
            failover_after_ms,
        } => LockServiceSpec::ReplicatedCache {
            key: "resource-x".to_owned(),
            tokens,
            last_token: 0,
            replication_lag_ms,
            failover_after_ms,
        },
        Service::Redlock { nodes, persistence } => LockServiceSpec::Redlock {
            nodes,
            persistence: match persistence {
                Persistence::None => NodePersistence::None,
                Persistence::EverySecond => NodePersistence::EverySecond,
                Persistence::Always => NodePersistence::Always,
            },
            restart_delay_ms: Millis(0),
            elapsed_check: ElapsedCheck::On,
            node_timeout_ms: Millis(50),
        },
        Service::Etcd | Service::Zookeeper => consensus(ConsensusSystem::Etcd, Millis(0)),
        Service::Consul { lock_delay_ms } => consensus(ConsensusSystem::Consul, lock_delay_ms),
        // Advisory locks and FencedLock never get here (`validate` refuses them); no lock
        // still needs a service in the scenario, which no client asks.
        Service::SqlRow
        | Service::NoLock
        | Service::PostgresAdvisory
        | Service::HazelcastFencedLock => LockServiceSpec::SqlRow {
            lock_name: "resource-x".to_owned(),
            last_token: 0,
        },
    }
}

fn consensus(system: ConsensusSystem, lock_delay_ms: Millis) -> LockServiceSpec {
    LockServiceSpec::Consensus {
        system,
        replicas: 3,
        heartbeat_ms: Millis(100),
        election_timeout_ms: Millis(500),
        lock_delay_ms,
        waiters: Waiting::FairQueue,
        bug: KnownBug::None,
    }
}

fn fencing(token_use: TokenUse) -> Fencing {
    match token_use {
        TokenUse::Fencing => Fencing::On,
        TokenUse::Sequencer => Fencing::Sequencer,
        TokenUse::Nothing
        | TokenUse::VersionCheck
        | TokenUse::IdempotencyKey
        | TokenUse::PartitionedOwnership => Fencing::Off,
    }
}

fn resource(token_use: TokenUse, write: WriteKind) -> ResourceSpec {
    match write {
        WriteKind::ReadModifyWrite | WriteKind::BlindWrite => ResourceSpec::Register {
            fencing: fencing(token_use),
            initial_value: 0,
            token_memory: TokenMemory::Durable,
        },
        WriteKind::StockDecrement => ResourceSpec::Inventory {
            fencing: fencing(token_use),
            sku: "sku-1".to_owned(),
            quantity: STOCK,
        },
        WriteKind::Payment => ResourceSpec::Payments {
            idempotency: match token_use {
                TokenUse::IdempotencyKey => Idempotency::Keys,
                _ => Idempotency::None,
            },
        },
    }
}

fn access(token_use: TokenUse, write: WriteKind) -> Access {
    match (write, token_use) {
        (WriteKind::ReadModifyWrite, TokenUse::VersionCheck) => {
            Access::OptimisticUpdate { attempts: 5 }
        }
        (WriteKind::ReadModifyWrite, _) => Access::ReadModifyWrite {},
        (WriteKind::BlindWrite, _) => Access::BlindWrite { value: 1 },
        (WriteKind::StockDecrement, _) => Access::Decrement { amount: 1 },
        (WriteKind::Payment, _) => Access::Charge {
            key: 0,
            amount: 100,
            timeout_ms: Millis(200),
            attempts: 3,
        },
    }
}
