//! The cast of a checked scenario: its nodes' names, indexed by `NodeId`, and the two facts the
//! narration needs about how they speak.

use crate::scenario::error::{ScenarioError, invalid};
use crate::vocabulary::happening::Request;
use crate::world::clock::Reading;
use crate::world::ids::NodeId;
use serde::{Deserialize, Serialize};

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
    /// Which clock reading the service's nodes time leases by (clients and the resource go by
    /// the wall clock): the engine's slots and the narration read it here.
    #[serde(default)]
    service_reading: Reading,
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
    /// The cast of a scenario that `check` has just named.
    pub(crate) fn new(
        names: Vec<String>,
        services: u16,
        request: Request,
        expiry_notice: ExpiryNotice,
        service_reading: Reading,
    ) -> Cast {
        Cast {
            names,
            services,
            request,
            expiry_notice,
            service_reading,
        }
    }

    /// Which reading of its clock `node` decides by.
    pub fn reading(&self, node: NodeId) -> Reading {
        if self.is_service(node) {
            self.service_reading
        } else {
            Reading::Wall
        }
    }

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
