//! Which lock service a chaos run contends for, and how each is set up for it. It describes the
//! service; it must not generate faults or judge runs.

use crate::models::client::ElapsedCheck;
use crate::models::lock_service::{KnownBug, Persistence, TokenSource, Waiting};
use crate::scenario::types::ConsensusSystem;
use crate::scenario::types::LockServiceSpec;
use crate::world::time::Millis;
use serde::{Deserialize, Serialize};
use std::fmt;
use strum::VariantArray;

/// The six lock services a chaos run can contend for.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
pub enum ChaosBackend {
    /// The article's SQL row.
    SqlRow,
    /// A single cache node (`SET NX PX`), with an `INCR` counter for fencing tokens.
    Cache,
    /// A cache primary with an asynchronously replicated standby, promoted when the primary
    /// stays down (failover); tokens from an `INCR` counter that is replicated like the key.
    ReplicatedCache,
    /// An AP in-memory data grid of five members, each granting from its own copy.
    DataGrid,
    /// Redlock over five independent cache nodes.
    Redlock,
    /// A three-replica consensus service.
    Consensus,
}

impl ChaosBackend {
    /// Every variant, in declaration order: strum's `VARIANTS` as an array, its length checked at
    /// compile time, so a new variant cannot be left out.
    pub const ALL: [ChaosBackend; 6] = *ChaosBackend::VARIANTS
        .as_array()
        .expect("ALL's length is the number of variants");

    /// The short id used in links and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            ChaosBackend::SqlRow => "sql-row",
            ChaosBackend::Cache => "cache",
            ChaosBackend::ReplicatedCache => "replicated-cache",
            ChaosBackend::DataGrid => "data-grid",
            ChaosBackend::Redlock => "redlock",
            ChaosBackend::Consensus => "consensus",
        }
    }

    pub fn from_id(id: &str) -> Option<ChaosBackend> {
        ChaosBackend::ALL.into_iter().find(|b| b.id() == id)
    }

    /// The service as a reader would name it.
    pub fn label(self) -> &'static str {
        match self {
            ChaosBackend::SqlRow => "SQL row",
            ChaosBackend::Cache => "Cache, one node",
            ChaosBackend::ReplicatedCache => "Replicated cache with failover",
            ChaosBackend::DataGrid => "Data grid, 5 members",
            ChaosBackend::Redlock => "Redlock, 5 nodes",
            ChaosBackend::Consensus => "Consensus, 3 replicas",
        }
    }

    /// The lock service as a scenario describes it.
    pub fn spec(self) -> LockServiceSpec {
        match self {
            ChaosBackend::SqlRow => LockServiceSpec::SqlRow {
                lock_name: "resource-x".to_owned(),
                last_token: 0,
            },
            ChaosBackend::Cache => LockServiceSpec::Cache {
                key: "resource-x".to_owned(),
                tokens: TokenSource::Counter,
                last_token: 0,
            },
            ChaosBackend::ReplicatedCache => LockServiceSpec::ReplicatedCache {
                key: "resource-x".to_owned(),
                tokens: TokenSource::Counter,
                last_token: 0,
                replication_lag_ms: Millis(50),
                failover_after_ms: Millis(500),
            },
            ChaosBackend::DataGrid => LockServiceSpec::DataGrid { members: 5 },
            ChaosBackend::Redlock => LockServiceSpec::Redlock {
                nodes: 5,
                persistence: Persistence::None,
                restart_delay_ms: Millis(0),
                elapsed_check: ElapsedCheck::On,
                node_timeout_ms: Millis(50),
            },
            ChaosBackend::Consensus => LockServiceSpec::Consensus {
                system: ConsensusSystem::Etcd,
                replicas: 3,
                heartbeat_ms: Millis(100),
                election_timeout_ms: Millis(500),
                lock_delay_ms: Millis(0),
                waiters: Waiting::FairQueue,
                bug: KnownBug::None,
            },
        }
    }
}

impl fmt::Display for ChaosBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}
