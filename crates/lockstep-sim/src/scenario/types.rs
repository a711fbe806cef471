//! The scenario file's types: the versioned, documented description of one experiment (see
//! `docs/scenario-format.md`). A scenario names its cast, the lock service, the resource, the
//! network, the seed, timed interventions and the expectations that must hold.
//!
//! Plain data with serde's shape; what serde cannot check lives in `check`, reading in `parse`.

use crate::models::client::{
    Access, ElapsedCheck, LeaseCheck, LocalDeadline, Locking, Protocol, RedlockParams, Renewal,
    Repeat, RequestTimeout, RetryPolicy,
};
use crate::models::lock_service::{KnownBug, Persistence, TokenSource, Waiting};
use crate::models::resource::{Fencing, Idempotency, TokenMemory};
use crate::scenario::expectation::Expectation;
use crate::scenario::source::{ScenarioSource, read_sources};
use crate::scenario::sources::Citation;
use crate::scenario::version::FORMAT_VERSION;
use crate::vocabulary::message::ReleaseMethod;
use crate::world::clock::Reading;
use crate::world::intervention::Intervention;
use crate::world::time::Millis;
use serde::{Deserialize, Serialize};

/// The most clients a scenario may have: enough for every catalogue scenario, few enough to draw.
pub const MAX_CLIENTS: usize = 8;
/// The longest run a scenario may ask for (one virtual hour).
pub const MAX_END_MS: u64 = 3_600_000;

pub const LOCK_SERVICE_NAME: &str = "lock-service";
pub const RESOURCE_NAME: &str = "resource";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The version the file was written in (`scenario::version`); always written as
    /// [`FORMAT_VERSION`], since an older file is brought up to date when read.
    #[serde(serialize_with = "write_current_format")]
    pub format: u32,
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub summary: String,
    /// Where the sequence comes from: citations of the bibliography (`crate::sources`) and
    /// notes (`scenario_source`). Format 1's `source` text is read here as a note.
    #[serde(default, alias = "source", deserialize_with = "read_sources")]
    pub sources: Vec<ScenarioSource>,
    pub seed: u64,
    pub end_ms: Millis,
    pub lock_service: LockServiceSpec,
    pub resource: ResourceSpec,
    pub network: NetworkSpec,
    pub clients: Vec<ClientSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clocks: Vec<ClockSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interventions: Vec<Intervention<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expectations: Vec<Expectation>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum LockServiceSpec {
    /// The seed's `distributed_locks` row. `last_token` is the row's `fencing_token` before the
    /// first grant (32 makes the first grant 33, as in Kleppmann's example).
    SqlRow {
        #[serde(default = "default_lock_name")]
        lock_name: String,
        #[serde(default)]
        last_token: u64,
    },
    /// A single cache node: `SET key value NX PX ttl`. With `tokens: counter` an `INCR` beside
    /// the key hands out fencing tokens, starting after `last_token`.
    Cache {
        #[serde(default = "default_lock_name")]
        key: String,
        tokens: TokenSource,
        #[serde(default)]
        last_token: u64,
    },
    /// A cache primary with an asynchronously replicated standby (nodes `redis-primary` and
    /// `redis-replica`): every change reaches the replica `replication_lag_ms` after the primary
    /// answered; if the primary stays down for `failover_after_ms`, the replica is promoted.
    ReplicatedCache {
        #[serde(default = "default_lock_name")]
        key: String,
        tokens: TokenSource,
        #[serde(default)]
        last_token: u64,
        replication_lag_ms: Millis,
        failover_after_ms: Millis,
    },
    /// An AP in-memory data grid (`member-1`, `member-2`, …; default 5), like Hazelcast 3.8.3's
    /// lock before its CP subsystem: any member grants from its own copy and tells the others
    /// afterwards. A client uses the first member it can reach.
    DataGrid {
        #[serde(default = "default_grid_members")]
        members: u8,
    },
    /// A consensus-replicated lock service (`etcd-1`, `etcd-2`, …, or `consul-1`, … with
    /// `system: consul`; default 3 replicas), like etcd, ZooKeeper, Chubby or Consul: a grant
    /// counts once a majority has it in its log; the token is the revision of the client's key;
    /// sessions live on keepalives (renewals); a leader that stays silent for
    /// `election_timeout_ms` is replaced by election. With `lock_delay_ms`, a lock whose holder's
    /// session expired is not granted again for that long (Chubby, Consul; etcd has none).
    Consensus {
        /// Which system the replicas are named after: `etcd` (default) or `consul`.
        #[serde(default)]
        system: ConsensusSystem,
        #[serde(default = "default_replicas")]
        replicas: u8,
        #[serde(default = "default_heartbeat")]
        heartbeat_ms: Millis,
        #[serde(default = "default_election_timeout")]
        election_timeout_ms: Millis,
        #[serde(default)]
        lock_delay_ms: Millis,
        /// How clients wait for a taken lock: `fair_queue` (default) or `herd`.
        #[serde(default = "default_waiting")]
        waiters: Waiting,
        /// A historical bug to reproduce: `none` (default) or `etcd_3_4_3`.
        #[serde(default = "default_bug")]
        bug: KnownBug,
    },
    /// Redlock over `nodes` independent cache nodes (`redis-a`, `redis-b`, …; default 5): the
    /// client locks a majority, each node expiring keys by its own clock. No fencing tokens.
    Redlock {
        #[serde(default = "default_redlock_nodes")]
        nodes: u8,
        /// What a node keeps across a crash: `none` (the key is gone), `every_second` (a key
        /// written in the last second is lost, like AOF with `appendfsync everysec`), `always`.
        #[serde(default = "default_persistence")]
        persistence: Persistence,
        /// A crashed node stays down at least this long before it may rejoin (the Redis docs'
        /// "delayed restarts"; 0 = restarts when told).
        #[serde(default)]
        restart_delay_ms: Millis,
        /// Redlock's step-3 check that the acquisition took less than the lock's validity.
        #[serde(default = "default_elapsed_check")]
        elapsed_check: ElapsedCheck,
        /// How long a client waits for the nodes' answers (default 50 ms).
        #[serde(default = "default_node_timeout")]
        node_timeout_ms: Millis,
    },
}

/// The system a consensus service stands for, which names its replicas: a scenario about a
/// feature only some systems have (lock-delay: Chubby and Consul, not etcd) names one that has it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConsensusSystem {
    #[default]
    Etcd,
    Consul,
}

impl ConsensusSystem {
    fn replica_name(self, number: u8) -> String {
        match self {
            ConsensusSystem::Etcd => format!("etcd-{number}"),
            ConsensusSystem::Consul => format!("consul-{number}"),
        }
    }
}

fn default_waiting() -> Waiting {
    Waiting::FairQueue
}

fn default_bug() -> KnownBug {
    KnownBug::None
}

fn default_replicas() -> u8 {
    3
}

fn default_heartbeat() -> Millis {
    Millis(100)
}

fn default_election_timeout() -> Millis {
    Millis(500)
}

fn default_grid_members() -> u8 {
    5
}

fn default_redlock_nodes() -> u8 {
    5
}

fn default_persistence() -> Persistence {
    Persistence::None
}

fn default_elapsed_check() -> ElapsedCheck {
    ElapsedCheck::On
}

fn default_node_timeout() -> Millis {
    Millis(50)
}

impl LockServiceSpec {
    /// The names of the nodes that make up this lock service, in node order.
    pub fn node_names(&self) -> Vec<String> {
        match self {
            LockServiceSpec::SqlRow { .. } | LockServiceSpec::Cache { .. } => {
                vec![LOCK_SERVICE_NAME.to_owned()]
            }
            LockServiceSpec::ReplicatedCache { .. } => {
                vec!["redis-primary".to_owned(), "redis-replica".to_owned()]
            }
            LockServiceSpec::Consensus {
                system, replicas, ..
            } => (1..=*replicas).map(|i| system.replica_name(i)).collect(),
            LockServiceSpec::DataGrid { members } => {
                (1..=*members).map(|i| format!("member-{i}")).collect()
            }
            LockServiceSpec::Redlock { nodes, .. } => (0..*nodes)
                .map(|i| format!("redis-{}", char::from(b'a' + i)))
                .collect(),
        }
    }

    /// How clients reach this service.
    /// Which reading of their clocks the service's nodes time leases by: a consensus replica
    /// the monotonic one (etcd's lessor, on Go's monotonic time); a SQL row, a Redis key and a
    /// data grid the wall clock, as they really do.
    pub fn reading(&self) -> Reading {
        match self {
            LockServiceSpec::Consensus { .. } => Reading::Monotonic,
            LockServiceSpec::SqlRow { .. }
            | LockServiceSpec::Cache { .. }
            | LockServiceSpec::ReplicatedCache { .. }
            | LockServiceSpec::DataGrid { .. }
            | LockServiceSpec::Redlock { .. } => Reading::Wall,
        }
    }

    pub fn protocol(&self) -> Protocol {
        match self {
            LockServiceSpec::Redlock {
                nodes,
                elapsed_check,
                node_timeout_ms,
                ..
            } => Protocol::Redlock(RedlockParams {
                nodes: *nodes,
                elapsed_check: *elapsed_check,
                node_timeout: *node_timeout_ms,
            }),
            LockServiceSpec::Consensus { .. } => Protocol::Session,
            LockServiceSpec::SqlRow { .. }
            | LockServiceSpec::Cache { .. }
            | LockServiceSpec::ReplicatedCache { .. }
            | LockServiceSpec::DataGrid { .. } => Protocol::Single,
        }
    }
}

fn default_lock_name() -> String {
    "resource-x".to_owned()
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum ResourceSpec {
    /// A versioned register holding one integer.
    Register {
        fencing: Fencing,
        #[serde(default)]
        initial_value: i64,
        /// Whether the highest token seen survives a crash of the resource (`durable`, the
        /// default: older files never forgot it) or is kept in memory only (`volatile`).
        #[serde(
            default = "default_token_memory",
            skip_serializing_if = "TokenMemory::is_durable"
        )]
        token_memory: TokenMemory,
    },
    /// The seed's inventory row (with fencing off: the conditional decrement of A2).
    Inventory {
        fencing: Fencing,
        #[serde(default = "default_sku")]
        sku: String,
        quantity: i64,
    },
    /// A payment service, with or without idempotency keys (A3).
    Payments { idempotency: Idempotency },
}

fn default_token_memory() -> TokenMemory {
    TokenMemory::Durable
}

fn default_sku() -> String {
    "sku-1".to_owned()
}

impl ResourceSpec {
    pub fn fencing(&self) -> Option<Fencing> {
        match self {
            ResourceSpec::Register { fencing, .. } | ResourceSpec::Inventory { fencing, .. } => {
                Some(*fencing)
            }
            ResourceSpec::Payments { .. } => None,
        }
    }

    /// The same resource with fencing switched (no change for a resource without fencing).
    pub fn with_fencing(&self, fencing: Fencing) -> ResourceSpec {
        let mut spec = self.clone();
        if let ResourceSpec::Register { fencing: f, .. }
        | ResourceSpec::Inventory { fencing: f, .. } = &mut spec
        {
            *f = fencing;
        }
        spec
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkSpec {
    /// One-way latency of every link, drawn uniformly from `[min, max]` per message.
    pub latency_ms: [u64; 2],
    #[serde(default)]
    pub loss_per_million: u32,
    /// Links that behave differently from the default, one direction each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkSpec>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    pub from: String,
    pub to: String,
    pub latency_ms: [u64; 2],
    #[serde(default)]
    pub loss_per_million: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClientSpec {
    pub name: String,
    pub start_ms: Millis,
    /// `lease` (the default) takes the lock; `none` goes straight to the resource.
    #[serde(default = "default_locking")]
    pub locking: Locking,
    pub ttl_ms: Millis,
    pub work_ms: Millis,
    pub access: Access,
    #[serde(default = "default_retry")]
    pub retry: RetryPolicy,
    #[serde(default = "default_release")]
    pub release: ReleaseMethod,
    #[serde(default = "default_lease_check")]
    pub lease_check: LeaseCheck,
    #[serde(default = "default_renewal")]
    pub renewal: Renewal,
    #[serde(default = "default_repeat")]
    pub repeat: Repeat,
    #[serde(default = "default_timeout")]
    pub timeout: RequestTimeout,
    /// `never` (the default) believes in the lock until told otherwise; `after` gives it up by
    /// the client's own clock when no renewal is acknowledged in time.
    #[serde(default = "default_local_deadline")]
    pub local_deadline: LocalDeadline,
}

fn default_local_deadline() -> LocalDeadline {
    LocalDeadline::Never {}
}

fn default_timeout() -> RequestTimeout {
    RequestTimeout::Never {}
}

fn default_repeat() -> Repeat {
    Repeat::Once {}
}

fn default_locking() -> Locking {
    Locking::Lease
}

fn default_retry() -> RetryPolicy {
    RetryPolicy::GiveUp {}
}

fn default_release() -> ReleaseMethod {
    ReleaseMethod::IfStillMine
}

fn default_lease_check() -> LeaseCheck {
    LeaseCheck::Never {}
}

fn default_renewal() -> Renewal {
    Renewal::Never {}
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    pub node: String,
    #[serde(default)]
    pub offset_ms: i64,
    #[serde(default)]
    pub drift_ppm: i32,
}

fn write_current_format<S: serde::Serializer>(_: &u32, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u32(FORMAT_VERSION)
}

impl Scenario {
    pub fn to_json(&self) -> String {
        crate::scenario::pretty::to_string(self)
    }

    /// The bibliography entries the scenario cites, in file order.
    pub fn citations(&self) -> Vec<Citation> {
        self.sources
            .iter()
            .filter_map(ScenarioSource::citation)
            .cloned()
            .collect()
    }

    /// The scenario's notes on where it comes from (a format 1 file's `source` text), in file
    /// order.
    pub fn notes(&self) -> impl Iterator<Item = &str> {
        self.sources.iter().filter_map(ScenarioSource::note)
    }
}
