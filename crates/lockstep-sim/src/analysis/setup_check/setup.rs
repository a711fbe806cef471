//! The `lock-setup` file: a lock as its user runs it, in their words and numbers (the service,
//! the TTL, the work, the longest pause, renewal, release, retries, the lease check, which
//! faults can happen, what the resource does with a token, what the write is). Every field but
//! `format` has a default (`docs/lock-setup.md`). Plain data: it says nothing about how the
//! simulator models it (`mapping`) and runs nothing.

use crate::world::time::Millis;
use serde::{Deserialize, Serialize};

/// The version of the `lock-setup` format this build reads and writes.
pub const SETUP_FORMAT: u32 = 1;

/// A lock as its user runs it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockSetup {
    pub format: u32,
    #[serde(default)]
    pub service: Service,
    /// The lease the lock is taken with.
    #[serde(default = "default_ttl")]
    pub ttl_ms: Millis,
    #[serde(default)]
    pub work_ms: WorkTime,
    /// The longest stop the process has seen: a GC pause, a VM stall, swapping.
    #[serde(default = "default_pause")]
    pub longest_pause_ms: Millis,
    #[serde(default)]
    pub renewal: RenewalSetup,
    #[serde(default)]
    pub release: Release,
    #[serde(default)]
    pub retries: Retries,
    #[serde(default)]
    pub lease_check: LeaseCheckSetup,
    /// Whether clocks can step (NTP corrections, a VM migrated).
    #[serde(default)]
    pub clock_steps: Possible,
    /// Whether the network can partition.
    #[serde(default)]
    pub partitions: Possible,
    /// Whether lock-service nodes can crash (and, where the service has one, fail over).
    #[serde(default)]
    pub crashes: Possible,
    /// How many processes contend for the lock.
    #[serde(default = "default_clients")]
    pub clients: u8,
    #[serde(default)]
    pub resource: TokenUse,
    #[serde(default)]
    pub write: WriteKind,
}

fn default_ttl() -> Millis {
    Millis(30_000)
}

fn default_pause() -> Millis {
    Millis(2_000)
}

fn default_clients() -> u8 {
    3
}

/// Whether a kind of fault can happen where the lock runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Possible {
    #[default]
    No,
    Yes,
}

/// The lock service, as its user would name it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum Service {
    /// One Redis, `SET key value NX PX ttl`.
    #[default]
    Redis,
    /// A Redis primary with an asynchronous replica, promoted when the primary stays down.
    RedisWithReplica {
        #[serde(default = "default_lag")]
        replication_lag_ms: Millis,
        #[serde(default = "default_failover")]
        failover_after_ms: Millis,
    },
    /// Redlock over `nodes` independent Redis nodes.
    Redlock {
        #[serde(default = "default_nodes")]
        nodes: u8,
        #[serde(default)]
        persistence: Persistence,
    },
    /// An etcd lock on a session (lease).
    Etcd,
    /// A ZooKeeper lock recipe on a session.
    Zookeeper,
    /// A Consul session lock, with its lock-delay.
    Consul {
        #[serde(default = "default_lock_delay")]
        lock_delay_ms: Millis,
    },
    /// The article's `distributed_locks` row in a SQL database.
    SqlRow,
    /// `pg_advisory_lock`: not modelled yet.
    PostgresAdvisory,
    /// Hazelcast's CP `FencedLock`: not modelled yet.
    HazelcastFencedLock,
    /// No lock at all: the resource alone keeps the data right.
    NoLock,
}

fn default_lag() -> Millis {
    Millis(50)
}

fn default_failover() -> Millis {
    Millis(500)
}

fn default_nodes() -> u8 {
    5
}

fn default_lock_delay() -> Millis {
    Millis(15_000)
}

/// What a Redlock node keeps across a crash.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Persistence {
    /// Nothing: the node comes back empty.
    #[default]
    None,
    /// AOF with `appendfsync everysec`.
    EverySecond,
    /// AOF with `appendfsync always`.
    Always,
}

/// How long the work under the lock takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkTime {
    pub typical: Millis,
    pub worst: Millis,
}

impl Default for WorkTime {
    fn default() -> WorkTime {
        WorkTime {
            typical: Millis(200),
            worst: Millis(2_000),
        }
    }
}

/// Whether the lease is renewed in the background.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum RenewalSetup {
    #[default]
    None,
    /// A watchdog renews every TTL/3; with `max_renewals`, it gives the lock up after that many.
    Watchdog {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_renewals: Option<u32>,
    },
}

/// How the lock is given back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Release {
    /// Only if the lock is still mine (the Lua compare-and-delete, the row's holder check).
    #[default]
    CompareAndDelete,
    /// Unconditionally: `DEL key`.
    Delete,
}

/// What a client does when the lock is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Retries {
    /// Retries after the first attempt; 0 gives up at once.
    pub attempts: u32,
    /// Each retry waits a random time up to this.
    pub max_delay_ms: Millis,
}

impl Default for Retries {
    fn default() -> Retries {
        Retries {
            attempts: 5,
            max_delay_ms: Millis(300),
        }
    }
}

/// Whether the client checks its lease just before writing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum LeaseCheckSetup {
    #[default]
    None,
    /// Write only with more than `margin_ms` of the lease left.
    BeforeWrite { margin_ms: Millis },
}

/// What the resource does with a token (or a version, or a key).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenUse {
    /// Nothing: any write is accepted.
    #[default]
    Nothing,
    /// Fencing: a write's token must be at least the highest seen.
    Fencing,
    /// Chubby's sequencer check: asks the lock service whether the token is still live.
    Sequencer,
    /// A conditional write on a version (`WHERE version = :read`).
    VersionCheck,
    /// An idempotency key on each request (payments).
    IdempotencyKey,
    /// Each owner writes only its own partition.
    PartitionedOwnership,
}

/// What the write under the lock is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteKind {
    /// Read a value, work, write a new value computed from it.
    #[default]
    ReadModifyWrite,
    /// Write a value without reading first.
    BlindWrite,
    /// Take one item from a stock.
    StockDecrement,
    /// Charge a payment.
    Payment,
}
