//! What a node *is* at one moment of a run, in terms that hold on any lock service: a client or
//! the resource (the same names on both sides of a comparison), or a role in the lock service —
//! the node that answers for the whole service, or one node of several — with whether it granted
//! the current holder its lease. Roles are read from the run's state at that moment (who leads,
//! whose copy holds the holder's lease), never from a node's name. This module only reads a
//! [`Sim`]; it must not run one or map anything onto another service.

use crate::analysis::chaos::ChaosBackend;
use crate::engine::sim::{Node, Process, Sim};
use crate::models::lock_service::NodeRole;
use crate::scenario::types::RESOURCE_NAME;
use crate::vocabulary::happening::Happening;
use crate::world::ids::NodeId;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What one node named by an intervention is at the intervention's moment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "is")]
pub enum Target {
    /// A client: the same client runs on both sides.
    Client { name: String },
    /// The protected resource: the same on both sides.
    Resource,
    /// A node of the lock service, by its role.
    Service { role: ServiceRole },
}

/// A lock-service node's role at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "position")]
pub enum ServiceRole {
    /// The node that answers clients for the whole service: a single-node service's only node,
    /// a replicated cache's primary, a consensus service's leader.
    Front { grants_holder: GrantsHolder },
    /// One node of several that does not answer for the whole service — a standby replica, a
    /// follower, one of Redlock's or a data grid's equal nodes: a minority of the service.
    Minority { grants_holder: GrantsHolder },
}

/// Whether a node granted the lease of the client that holds the lock at that moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrantsHolder {
    Yes,
    No,
}

impl ServiceRole {
    pub fn grants_holder(self) -> GrantsHolder {
        match self {
            ServiceRole::Front { grants_holder } | ServiceRole::Minority { grants_holder } => {
                grants_holder
            }
        }
    }
}

impl ServiceRole {
    /// The role in the words of one service: "the leader", "a follower", "the primary", "one of
    /// Redlock's nodes, a minority", with ", which granted the current holder its lease".
    pub fn describe(self, service: ChaosBackend) -> String {
        let position = match (self, service) {
            (ServiceRole::Front { .. }, ChaosBackend::SqlRow) => "the SQL row (the only node)",
            (ServiceRole::Front { .. }, ChaosBackend::Cache) => "the cache (the only node)",
            (ServiceRole::Front { .. }, ChaosBackend::ReplicatedCache) => "the primary",
            (ServiceRole::Front { .. }, ChaosBackend::Consensus) => "the leader",
            (ServiceRole::Minority { .. }, ChaosBackend::ReplicatedCache) => "the replica",
            (ServiceRole::Minority { .. }, ChaosBackend::Consensus) => "a follower",
            (ServiceRole::Minority { .. }, ChaosBackend::Redlock) => {
                "one of Redlock's nodes, a minority"
            }
            (ServiceRole::Minority { .. }, ChaosBackend::DataGrid) => {
                "one member of the grid, a minority"
            }
            // Redlock and the grid have no front; a single node has no minority.
            (ServiceRole::Front { .. }, _) => "the node that answers for the whole service",
            (ServiceRole::Minority { .. }, _) => "one node of several",
        };
        match self.grants_holder() {
            GrantsHolder::Yes => format!("{position}, which granted the current holder its lease"),
            GrantsHolder::No => position.to_owned(),
        }
    }
}

impl Target {
    /// The target in the words of one service (see [`ServiceRole::describe`]).
    pub fn describe(&self, service: ChaosBackend) -> String {
        match self {
            Target::Service { role } => role.describe(service),
            other => other.to_string(),
        }
    }
}

impl fmt::Display for ServiceRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (position, grants) = match self {
            ServiceRole::Front { grants_holder } => (
                "the node that answers for the whole service (its only node, the primary or the leader)",
                *grants_holder,
            ),
            ServiceRole::Minority { grants_holder } => (
                "one service node of several that does not answer for the whole service (a minority)",
                *grants_holder,
            ),
        };
        f.write_str(position)?;
        if grants == GrantsHolder::Yes {
            f.write_str(", one that granted the current holder its lease")?;
        }
        Ok(())
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Client { name } => write!(f, "the client {name}"),
            Target::Resource => f.write_str("the resource"),
            Target::Service { role } => role.fmt(f),
        }
    }
}

/// The lock service's roles at one moment of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceView {
    /// The service's nodes, in node order.
    pub nodes: Vec<NodeId>,
    /// The node that answers for the whole service, if the design has one and it is known now.
    pub front: Option<NodeId>,
    /// The nodes that granted the current holder its lease (none when nobody holds the lock).
    pub grantors: Vec<NodeId>,
}

impl ServiceView {
    /// Reads the roles from the run as it stands.
    pub fn of(sim: &Sim, kind: ChaosBackend) -> ServiceView {
        let nodes: Vec<NodeId> = sim.cast().services().collect();
        let front = front(sim, kind, &nodes);
        let grantors = match sim.lock_holder() {
            None => Vec::new(),
            Some(holder) => match (kind, front) {
                // Redlock's nodes and a grid's members each grant from their own copy: the
                // holder's grantors are the nodes whose live key is the holder's (Redlock: the
                // majority it locked, Kleppmann 2016 "nodes A, B, C") and, for the grid, that
                // handed it the grant themselves rather than copying it from a peer.
                (ChaosBackend::Redlock | ChaosBackend::DataGrid, _) => nodes
                    .iter()
                    .copied()
                    .filter(|&node| holds_for(sim, node, holder))
                    .filter(|&node| kind == ChaosBackend::Redlock || granted(sim, node, holder))
                    .collect(),
                (_, Some(front)) => vec![front],
                (_, None) => Vec::new(),
            },
        };
        ServiceView {
            nodes,
            front,
            grantors,
        }
    }

    /// The role of one service node.
    pub fn role(&self, node: NodeId) -> ServiceRole {
        let grants_holder = if self.grantors.contains(&node) {
            GrantsHolder::Yes
        } else {
            GrantsHolder::No
        };
        if self.front == Some(node) {
            ServiceRole::Front { grants_holder }
        } else {
            ServiceRole::Minority { grants_holder }
        }
    }

    pub fn grants(&self, node: NodeId) -> GrantsHolder {
        self.role(node).grants_holder()
    }
}

/// What the node named `name` is in `sim` at its current moment (`None`: no such node).
pub fn target(sim: &Sim, view: &ServiceView, name: &str) -> Option<Target> {
    let node = sim.cast().find(name)?;
    Some(if sim.cast().is_service(node) {
        Target::Service {
            role: view.role(node),
        }
    } else if name == RESOURCE_NAME {
        Target::Resource
    } else {
        Target::Client {
            name: name.to_owned(),
        }
    })
}

/// The node that answers for the whole service: the only node of a single-node service; the
/// primary of a replicated cache (Redis docs, "Why failover-based implementations are not
/// enough": clients talk to the master); the leader of a consensus service (Raft §5.1: the
/// leader handles all client requests) — a running one with the highest term, since a deposed
/// leader may not know it yet. Redlock and the data grid have none: their nodes are equals.
fn front(sim: &Sim, kind: ChaosBackend, nodes: &[NodeId]) -> Option<NodeId> {
    match kind {
        ChaosBackend::SqlRow | ChaosBackend::Cache => nodes.first().copied(),
        ChaosBackend::Redlock | ChaosBackend::DataGrid => None,
        ChaosBackend::ReplicatedCache => {
            let primaries: Vec<NodeId> = nodes
                .iter()
                .copied()
                .filter(|&node| role(sim, node) == Some(NodeRole::Primary))
                .collect();
            primaries
                .iter()
                .copied()
                .find(|&node| running(sim, node))
                .or_else(|| primaries.first().copied())
        }
        ChaosBackend::Consensus => nodes
            .iter()
            .copied()
            .filter(|&node| running(sim, node))
            .filter_map(|node| match role(sim, node) {
                Some(NodeRole::Leader { term }) => Some((term, node)),
                _ => None,
            })
            .max_by_key(|&(term, node)| (term, std::cmp::Reverse(node)))
            .map(|(_, node)| node),
    }
}

/// A service node's role, read the one way every view reads it (`LockService::role`).
fn role(sim: &Sim, node: NodeId) -> Option<NodeRole> {
    match sim.slot(node).map(|slot| &slot.node) {
        Some(Node::LockService(service)) => Some(service.role()),
        _ => None,
    }
}

fn running(sim: &Sim, node: NodeId) -> bool {
    sim.slot(node)
        .is_some_and(|slot| !matches!(slot.process, Process::Crashed { .. }))
}

/// Whether `node`'s own copy holds a live lease for `holder`, by its own clock.
fn holds_for(sim: &Sim, node: NodeId, holder: NodeId) -> bool {
    let Some(slot) = sim.slot(node) else {
        return false;
    };
    match &slot.node {
        Node::LockService(service) if running(sim, node) => service
            .live_lease(slot.local_time(sim.now()))
            .is_some_and(|(owner, _)| owner == holder),
        _ => false,
    }
}

/// Whether `node` itself granted `holder` a lease at some point of the run so far.
fn granted(sim: &Sim, node: NodeId, holder: NodeId) -> bool {
    sim.trace().iter().any(|event| {
        event.actor == node
            && matches!(event.happening, Happening::Granted { client, .. } if client == holder)
    })
}
