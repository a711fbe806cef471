//! What a counterexample search explores: a small base scenario, the invariant to break, the
//! faults it may strike (how many, of which kinds) and how far it looks. Plain, serialisable
//! data: it crosses to the page's worker as JSON and is read from a file by the CLI.
//!
//! This module checks a configuration; it never runs one.

use crate::scenario::error::ScenarioError;
use crate::scenario::types::Scenario;
use crate::vocabulary::invariant::Invariant;
use crate::world::time::Millis;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The most clients a search base may have: each one multiplies the choices.
pub const MAX_SEARCH_CLIENTS: usize = 3;
/// The most faults one search may strike.
pub const MAX_FAULTS: u8 = 4;

/// One counterexample search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchConfig {
    /// The run without the searched faults: 1 to 3 clients, one lock service, a resource. Its
    /// own interventions stay (they are part of the setting, e.g. a partition from the start).
    pub base: Scenario,
    /// The invariant the search tries to break.
    pub invariant: Invariant,
    pub faults: FaultBudget,
    #[serde(default)]
    pub bounds: Bounds,
}

/// The faults the search may strike: at most `max` of them, each one of the listed kinds, at
/// any step of the grid (see [`Bounds::step_ms`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultBudget {
    pub max: u8,
    /// Lengths of a process pause (a stop-the-world GC pause), tried on every client.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pauses: Vec<Millis>,
    /// Lengths of a partition between a client and one other node (both ways, then healed),
    /// tried for every client and every lock-service node or the resource.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partitions: Vec<Millis>,
    /// Steps of a lock-service node's clock (negative: backwards), tried on every service node.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clock_jumps: Vec<i64>,
    /// How long a message in flight is held back, tried on every message in flight.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub message_delays: Vec<Millis>,
    /// Faults inside the lock service itself: what a replicated service must survive.
    #[serde(default, skip_serializing_if = "ServiceFaults::is_empty")]
    pub service: ServiceFaults,
}

/// Faults that strike the lock service's own nodes: a paused leader or follower, a partition
/// between two of its nodes (one way, either way, or both), a crashed node. Each is tried on
/// every service node or pair; each ends by itself after its length.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServiceFaults {
    /// Lengths of a pause of one service node.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pauses: Vec<Millis>,
    /// Lengths of a partition between two service nodes, then healed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partitions: Vec<Millis>,
    /// How long a crashed service node stays down before it restarts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub crashes: Vec<Millis>,
}

impl ServiceFaults {
    pub fn is_empty(&self) -> bool {
        self.pauses.is_empty() && self.partitions.is_empty() && self.crashes.is_empty()
    }
}

impl FaultBudget {
    fn has_kinds(&self) -> bool {
        !(self.pauses.is_empty()
            && self.partitions.is_empty()
            && self.clock_jumps.is_empty()
            && self.message_delays.is_empty()
            && self.service.is_empty())
    }

    /// What the search tries when told only how many faults: pauses and partitions twice the
    /// longest lease (long enough to outlive it), clock jumps of as much forward, and message
    /// delays of one lease.
    pub fn defaults_for(base: &Scenario, max: u8) -> FaultBudget {
        let ttl = base
            .clients
            .iter()
            .map(|client| client.ttl_ms.0)
            .max()
            .unwrap_or(1_000);
        FaultBudget {
            max,
            pauses: vec![Millis(2 * ttl)],
            partitions: vec![Millis(2 * ttl)],
            clock_jumps: vec![i64::try_from(2 * ttl).unwrap_or(i64::MAX)],
            message_delays: vec![Millis(ttl)],
            service: ServiceFaults::default(),
        }
    }
}

/// How far the search looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bounds {
    /// Faults strike only at multiples of this many virtual milliseconds.
    pub step_ms: Millis,
    /// The longest run searched, in trace events (the base's `end_ms` bounds it too).
    pub max_events: u32,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            step_ms: Millis(100),
            max_events: 200,
        }
    }
}

/// Why a configuration cannot be searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The file is not a search configuration (its JSON, a missing or unknown field).
    Syntax(ScenarioError),
    /// The base is not a valid scenario.
    Base(ScenarioError),
    TooManyClients {
        count: usize,
    },
    TooManyFaults {
        max: u8,
    },
    /// Faults are allowed but no kind of fault is listed.
    NoFaultKinds,
    /// A length of zero milliseconds (`path` says which list).
    ZeroLength {
        path: &'static str,
    },
    ZeroStep,
    ZeroEvents,
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Syntax(error) => write!(f, "{error}"),
            SearchError::Base(error) => write!(f, "base: {error}"),
            SearchError::TooManyClients { count } => write!(
                f,
                "base.clients: the search takes 1 to {MAX_SEARCH_CLIENTS} clients, this base has {count}"
            ),
            SearchError::TooManyFaults { max } => write!(
                f,
                "faults.max: at most {MAX_FAULTS} faults can be searched, not {max}"
            ),
            SearchError::NoFaultKinds => f.write_str(
                "faults: a fault is allowed but no kind is listed (pauses, partitions, clock_jumps, message_delays or service)",
            ),
            SearchError::ZeroLength { path } => {
                write!(f, "{path}: every length must be at least 1 ms")
            }
            SearchError::ZeroStep => f.write_str("bounds.step_ms: must be at least 1 ms"),
            SearchError::ZeroEvents => f.write_str("bounds.max_events: must be at least 1"),
        }
    }
}

impl std::error::Error for SearchError {}

impl SearchConfig {
    /// Checks what serde cannot.
    pub fn validate(&self) -> Result<(), SearchError> {
        self.base.check().map_err(SearchError::Base)?;
        let count = self.base.clients.len();
        if count > MAX_SEARCH_CLIENTS {
            return Err(SearchError::TooManyClients { count });
        }
        let faults = &self.faults;
        if faults.max > MAX_FAULTS {
            return Err(SearchError::TooManyFaults { max: faults.max });
        }
        if faults.max > 0 && !faults.has_kinds() {
            return Err(SearchError::NoFaultKinds);
        }
        for (path, lengths) in [
            ("faults.pauses", &faults.pauses),
            ("faults.partitions", &faults.partitions),
            ("faults.message_delays", &faults.message_delays),
            ("faults.service.pauses", &faults.service.pauses),
            ("faults.service.partitions", &faults.service.partitions),
            ("faults.service.crashes", &faults.service.crashes),
        ] {
            if lengths.iter().any(|length| length.0 == 0) {
                return Err(SearchError::ZeroLength { path });
            }
        }
        if faults.clock_jumps.contains(&0) {
            return Err(SearchError::ZeroLength {
                path: "faults.clock_jumps",
            });
        }
        if self.bounds.step_ms.0 == 0 {
            return Err(SearchError::ZeroStep);
        }
        if self.bounds.max_events == 0 {
            return Err(SearchError::ZeroEvents);
        }
        Ok(())
    }

    /// Reads a configuration file strictly and checks it.
    pub fn parse(json: &str) -> Result<SearchConfig, SearchError> {
        let config: SearchConfig =
            crate::scenario::strict_json::from_str(json, "search configuration")
                .map_err(|e| SearchError::Syntax(e.into()))?;
        config.validate()?;
        Ok(config)
    }
}
