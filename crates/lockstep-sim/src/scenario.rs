//! Scenario files: the versioned, documented description of one experiment (see
//! `docs/scenario-format.md`). A scenario names its cast, the lock service, the resource, the
//! network, the seed, timed interventions and the expectations that must hold.
//!
//! Parsing never panics. Unknown fields and bad values are errors that name the field and the
//! reason; `Scenario::parse` returns either a scenario that `Sim::new` will accept or such an
//! error.

use crate::budget::{self, BudgetSpent};
use crate::client::{
    Access, ElapsedCheck, LeaseCheck, LocalDeadline, Locking, Protocol, RedlockParams, Renewal,
    Repeat, RequestTimeout, RetryPolicy,
};
use crate::expectation::Expectation;
use crate::ids::NodeId;
use crate::intervention::{Action, Intervention};
use crate::lock_service::{KnownBug, Persistence, TokenSource, Waiting};
use crate::ranges;
use crate::resource::Fencing;
use crate::resource::Idempotency;
use crate::resource::TokenMemory;
use crate::scenario_format;
pub use crate::scenario_format::FORMAT_VERSION;
use crate::scenario_source::{ScenarioSource, read_sources};
use crate::sources::{Citation, check_citations};
use crate::strict_json::{self, JsonError};
use crate::time::Millis;
use crate::vocabulary::happening::Request;
use crate::vocabulary::message::ReleaseMethod;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The most clients a scenario may have: enough for every catalogue scenario, few enough to draw.
pub const MAX_CLIENTS: usize = 8;
/// The longest run a scenario may ask for (one virtual hour).
pub const MAX_END_MS: u64 = 3_600_000;

pub const LOCK_SERVICE_NAME: &str = "lock-service";
pub const RESOURCE_NAME: &str = "resource";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The version the file was written in (`scenario_format`); always written as
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

/// Why a scenario cannot be run. Each variant says where (`path`, in the file's own terms) and
/// why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    /// Not valid JSON for this format: a syntax error, a missing or unknown field, a wrong type.
    Syntax {
        line: usize,
        column: usize,
        /// Where in the document, e.g. `clients[1].renewal`, when known.
        path: Option<String>,
        message: String,
    },
    /// A version this build does not read (`scenario_format`).
    UnsupportedFormat {
        found: u32,
    },
    /// A field the file's version does not have, and what to write instead.
    Retired {
        field: &'static str,
        change: &'static str,
    },
    Invalid {
        path: String,
        reason: String,
    },
    /// The run reached its budget before its end (see `budget`).
    BudgetSpent(BudgetSpent),
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Syntax {
                line,
                column,
                path,
                message,
            } => {
                // serde cannot place errors inside tagged objects: it reports line 0 there.
                if *line > 0 {
                    write!(f, "line {line}, column {column}: ")?;
                }
                match path {
                    Some(path) => write!(f, "{path}: {message}"),
                    None => f.write_str(message),
                }
            }
            ScenarioError::UnsupportedFormat { found } => write!(
                f,
                "format: this is format {found}, but this version of Lockstep reads formats {} to \
                 {FORMAT_VERSION}",
                scenario_format::OLDEST_FORMAT
            ),
            ScenarioError::Retired { field, change } => write!(f, "{field}: {change}"),
            ScenarioError::Invalid { path, reason } => write!(f, "{path}: {reason}"),
            ScenarioError::BudgetSpent(spent) => write!(f, "{spent}"),
        }
    }
}

impl std::error::Error for ScenarioError {}

impl From<JsonError> for ScenarioError {
    fn from(error: JsonError) -> ScenarioError {
        ScenarioError::Syntax {
            line: error.line,
            column: error.column,
            path: error.path,
            message: error.message,
        }
    }
}

fn invalid(path: impl Into<String>, reason: impl Into<String>) -> ScenarioError {
    ScenarioError::Invalid {
        path: path.into(),
        reason: reason.into(),
    }
}

/// The names of the nodes of a scenario, indexed by `NodeId`: the lock service, the resource,
/// then the clients in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cast {
    names: Vec<String>,
    /// How many of the first nodes make up the lock service.
    services: u16,
    /// What clients ask of the resource, so the narration can name a refused order an order.
    #[serde(default)]
    request: Request,
    /// How a holder hears that its lease expired, so the narration can say it at the expiry.
    #[serde(default)]
    expiry_notice: ExpiryNotice,
}

/// How the holder of an expired lease hears of it. No service in the simulation sends anything
/// at the expiry itself; what differs is whether the service has a session to end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExpiryNotice {
    /// A lease row or a key: nothing tells the holder; a renewal it sends is refused.
    #[default]
    Silent,
    /// A session service (etcd, ZooKeeper, Consul, Chubby): the session has ended, which the
    /// service says in answer to the holder's next keepalive — if one gets through, and possibly
    /// after the holder has acted on its belief.
    NextKeepalive,
}

impl Cast {
    /// The lock service's node, or the first of them when it has several.
    pub fn lock_service(&self) -> NodeId {
        NodeId(0)
    }

    /// The lock service's nodes.
    pub fn services(&self) -> impl Iterator<Item = NodeId> + use<> {
        (0..self.services).map(NodeId)
    }

    pub fn is_service(&self, node: NodeId) -> bool {
        node.0 < self.services
    }

    pub fn resource(&self) -> NodeId {
        NodeId(self.services)
    }

    /// What the resource is asked for: writes, orders or charges.
    pub fn request(&self) -> Request {
        self.request
    }

    /// How a holder hears that its lease expired.
    pub fn expiry_notice(&self) -> ExpiryNotice {
        self.expiry_notice
    }

    pub fn name(&self, node: NodeId) -> &str {
        self.names.get(node.index()).map_or("?", String::as_str)
    }

    pub fn find(&self, name: &str) -> Option<NodeId> {
        self.names
            .iter()
            .position(|n| n == name)
            .and_then(|i| u16::try_from(i).ok())
            .map(NodeId)
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub fn nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        (0..self.names.len())
            .filter_map(|i| u16::try_from(i).ok())
            .map(NodeId)
    }

    pub fn clients(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.nodes().filter(|&n| self.is_client(n))
    }

    pub fn is_client(&self, node: NodeId) -> bool {
        node.0 > self.services && node.index() < self.names.len()
    }

    /// Resolves a name found at `path`, or says which names exist.
    pub fn resolve(&self, name: &str, path: &str) -> Result<NodeId, ScenarioError> {
        self.find(name).ok_or_else(|| {
            invalid(
                path,
                format!(
                    "no node named \"{name}\" (the nodes are: {})",
                    self.names.join(", ")
                ),
            )
        })
    }
}

impl Scenario {
    /// Reads and validates a scenario file.
    pub fn parse(json: &str) -> Result<Scenario, ScenarioError> {
        // The version first: a file of another format should say so, not list unknown fields.
        scenario_format::check(json)?;
        let scenario: Scenario = strict_json::from_str(json, "scenario")?;
        scenario.cast()?;
        Ok(scenario)
    }

    /// Reads and validates a scenario file given as bytes, which must be UTF-8 text.
    pub fn parse_bytes(bytes: &[u8]) -> Result<Scenario, ScenarioError> {
        Scenario::parse(strict_json::text(bytes)?)
    }

    pub fn to_json(&self) -> String {
        crate::pretty::to_string(self)
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

    /// Checks everything serde cannot and names the nodes.
    pub fn cast(&self) -> Result<Cast, ScenarioError> {
        check_slug("id", &self.id, "an id", 64)?;
        if !scenario_format::readable(self.format) {
            return Err(ScenarioError::UnsupportedFormat { found: self.format });
        }
        if self.end_ms.0 == 0 || self.end_ms.0 > MAX_END_MS {
            return Err(invalid(
                "end_ms",
                format!("must be between 1 and {MAX_END_MS}"),
            ));
        }
        ranges::check(self)?;
        if self.clients.is_empty() {
            return Err(invalid("clients", "a scenario needs at least one client"));
        }
        if self.clients.len() > MAX_CLIENTS {
            return Err(invalid(
                "clients",
                format!(
                    "{} clients; at most {MAX_CLIENTS} are supported",
                    self.clients.len()
                ),
            ));
        }
        check_latency("network.latency_ms", self.network.latency_ms)?;
        check_sources(&self.sources)?;
        if let LockServiceSpec::Redlock { nodes, .. } = self.lock_service
            && !(1..=7).contains(&nodes)
        {
            return Err(invalid(
                "lock_service.nodes",
                "Redlock needs between 1 and 7 nodes",
            ));
        }
        if let LockServiceSpec::Consensus {
            replicas,
            heartbeat_ms,
            election_timeout_ms,
            ..
        } = self.lock_service
        {
            if !(1..=7).contains(&replicas) {
                return Err(invalid(
                    "lock_service.replicas",
                    "a consensus service needs between 1 and 7 replicas",
                ));
            }
            // Both are at least 1 ms (see `ranges`).
            if election_timeout_ms <= heartbeat_ms {
                return Err(invalid(
                    "lock_service.election_timeout_ms",
                    "must be longer than a heartbeat",
                ));
            }
        }
        if let ResourceSpec::Inventory {
            fencing: Fencing::CheckAndSet | Fencing::Sequencer,
            ..
        } = self.resource
        {
            return Err(invalid(
                "resource.fencing",
                "an inventory checks tokens itself (on) or not at all (off); check_and_set and \
                 sequencer apply to a register",
            ));
        }
        if let LockServiceSpec::DataGrid { members } = self.lock_service
            && !(1..=7).contains(&members)
        {
            return Err(invalid(
                "lock_service.members",
                "a grid needs between 1 and 7 members",
            ));
        }
        check_loss("network.loss_per_million", self.network.loss_per_million)?;
        let service_names = self.lock_service.node_names();
        let services = u16::try_from(service_names.len()).unwrap_or(u16::MAX);
        let mut names = service_names;
        names.push(RESOURCE_NAME.to_owned());
        for (i, client) in self.clients.iter().enumerate() {
            let path = format!("clients[{i}].name");
            check_slug(&path, &client.name, "a name", 24)?;
            if names.contains(&client.name) {
                return Err(invalid(
                    path,
                    format!("the name \"{}\" is already taken", client.name),
                ));
            }
            names.push(client.name.clone());
            if let Some(reason) = mismatch(client.access, &self.resource) {
                return Err(invalid(format!("clients[{i}].access"), reason));
            }
        }
        let request = match self.resource {
            ResourceSpec::Register { .. } => Request::Write,
            ResourceSpec::Inventory { .. } => Request::Order,
            ResourceSpec::Payments { .. } => Request::Charge,
        };
        let expiry_notice = match self.lock_service.protocol() {
            Protocol::Session => ExpiryNotice::NextKeepalive,
            Protocol::Single | Protocol::Redlock(_) => ExpiryNotice::Silent,
        };
        let cast = Cast {
            names,
            services,
            request,
            expiry_notice,
        };
        for (i, link) in self.network.links.iter().enumerate() {
            cast.resolve(&link.from, &format!("network.links[{i}].from"))?;
            cast.resolve(&link.to, &format!("network.links[{i}].to"))?;
            check_latency(&format!("network.links[{i}].latency_ms"), link.latency_ms)?;
            check_loss(
                &format!("network.links[{i}].loss_per_million"),
                link.loss_per_million,
            )?;
        }
        for (i, clock) in self.clocks.iter().enumerate() {
            cast.resolve(&clock.node, &format!("clocks[{i}].node"))?;
        }
        for (i, intervention) in self.interventions.iter().enumerate() {
            let path = format!("interventions[{i}].do");
            let action = intervention
                .action
                .clone()
                .try_map(|name| cast.resolve(&name, &path))?;
            match action {
                Action::Partition { from, to, .. } | Action::Heal { a: from, b: to }
                    if from == to =>
                {
                    return Err(invalid(path, "a node cannot be cut off from itself"));
                }
                _ => {}
            }
            if intervention.at_ms.0 > self.end_ms.0 {
                return Err(invalid(
                    format!("interventions[{i}].at_ms"),
                    format!(
                        "{} is after the end of the run ({})",
                        intervention.at_ms.0, self.end_ms.0
                    ),
                ));
            }
        }
        for (i, expectation) in self.expectations.iter().enumerate() {
            expectation.validate(&cast, &format!("expectations[{i}]"))?;
        }
        budget::check(self)?;
        Ok(cast)
    }
}

/// Why a client's access cannot work against the resource, if it cannot.
fn mismatch(access: Access, resource: &ResourceSpec) -> Option<String> {
    if resource.fencing() == Some(Fencing::CheckAndSet)
        && !matches!(
            access,
            Access::ReadModifyWrite {} | Access::OptimisticUpdate { .. }
        )
    {
        return Some(
            "a check_and_set resource is claimed by a read: use read_modify_write".to_owned(),
        );
    }
    let fits = match access {
        Access::ReadModifyWrite {}
        | Access::BlindWrite { .. }
        | Access::OptimisticUpdate { .. } => {
            matches!(resource, ResourceSpec::Register { .. })
        }
        Access::Decrement { .. } => matches!(resource, ResourceSpec::Inventory { .. }),
        Access::Charge { .. } => matches!(resource, ResourceSpec::Payments { .. }),
    };
    let needs = match access {
        Access::ReadModifyWrite {}
        | Access::BlindWrite { .. }
        | Access::OptimisticUpdate { .. } => "register",
        Access::Decrement { .. } => "inventory",
        Access::Charge { .. } => "payments",
    };
    (!fits).then(|| format!("this access needs a resource of kind \"{needs}\""))
}

/// Every citation resolves in the bibliography; no note is blank.
fn check_sources(sources: &[ScenarioSource]) -> Result<(), ScenarioError> {
    for (i, entry) in sources.iter().enumerate() {
        let path = format!("sources[{i}]");
        match entry {
            ScenarioSource::Cited(citation) => check_citations(std::slice::from_ref(citation))
                .map_err(|(_, reason)| invalid(&path, reason.to_string()))?,
            ScenarioSource::Note(text) if text.trim().is_empty() => {
                return Err(invalid(path, "a note must say something"));
            }
            ScenarioSource::Note(_) => {}
        }
    }
    Ok(())
}

/// Ids and names are slugs: 1 to `max_len` lowercase letters, digits or '-' (they appear in
/// links and node lists).
fn check_slug(path: &str, text: &str, what: &str, max_len: usize) -> Result<(), ScenarioError> {
    let fine = !text.is_empty()
        && text.len() <= max_len
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if fine {
        Ok(())
    } else {
        Err(invalid(
            path,
            format!(
                "\"{text}\" is not {what}: use 1 to {max_len} lowercase letters, digits or '-'"
            ),
        ))
    }
}

fn check_latency(path: &str, [min, max]: [u64; 2]) -> Result<(), ScenarioError> {
    if min > max {
        return Err(invalid(
            path,
            format!("the minimum ({min}) is above the maximum ({max})"),
        ));
    }
    if max > MAX_END_MS {
        return Err(invalid(path, format!("{max} ms is longer than any run")));
    }
    Ok(())
}

fn check_loss(path: &str, loss: u32) -> Result<(), ScenarioError> {
    if loss > 1_000_000 {
        return Err(invalid(
            path,
            format!("{loss} is not a probability in parts per million"),
        ));
    }
    Ok(())
}
