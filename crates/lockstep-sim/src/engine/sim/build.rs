//! Building a run's network and nodes from its scenario: the lock service's nodes, the resource
//! and the clients, in `NodeId` order.
//!
//! Construction only: nothing here runs.

use super::slot::{Node, Process, Slot};
use crate::models::client::{Client, ClientConfig};
use crate::models::lock_service::{
    Backend, CacheLock, ConsensusConfig, GridMember, LockService, Replica, Replicated, Role,
    SqlRow, TokenSource,
};
use crate::models::resource::{Inventory, Payments, Register, Resource};
use crate::scenario::cast::Cast;
use crate::scenario::error::ScenarioError;
use crate::scenario::types::LockServiceSpec;
use crate::scenario::types::ResourceSpec;
use crate::scenario::types::Scenario;
use crate::world::clock::LocalClock;
use crate::world::ids::NodeId;
use crate::world::network::{LinkBehaviour, Network};
use crate::world::time::Millis;
use crate::world::token::FencingToken;
use std::collections::{BTreeMap, VecDeque};

pub(super) fn build_network(scenario: &Scenario, cast: &Cast) -> Result<Network, ScenarioError> {
    let spec = &scenario.network;
    let behaviour = |latency: [u64; 2], loss| LinkBehaviour {
        latency_min: Millis(latency[0]),
        latency_max: Millis(latency[1]),
        loss_per_million: loss,
    };
    let mut links = BTreeMap::new();
    for (i, link) in spec.links.iter().enumerate() {
        let from = cast.resolve(&link.from, &format!("network.links[{i}].from"))?;
        let to = cast.resolve(&link.to, &format!("network.links[{i}].to"))?;
        links.insert(
            (from, to),
            behaviour(link.latency_ms, link.loss_per_million),
        );
    }
    Ok(Network::new(
        behaviour(spec.latency_ms, spec.loss_per_million),
        links,
    ))
}

/// Every node of the scenario, in `NodeId` order: the service's, the resource, the clients.
pub(super) fn build_slots(scenario: &Scenario, cast: &Cast) -> Vec<Slot> {
    let services = build_services(&scenario.lock_service, cast);
    let resource = build_resource(&scenario.resource);
    let protocol = scenario.lock_service.protocol();
    let clients = cast.clients().zip(&scenario.clients).map(|(me, spec)| {
        Node::Client(Client::new(ClientConfig {
            me,
            protocol,
            resource: cast.resource(),
            locking: spec.locking,
            ttl: spec.ttl_ms,
            work: spec.work_ms,
            access: spec.access,
            retry: spec.retry,
            release: spec.release,
            lease_check: spec.lease_check,
            renewal: spec.renewal,
            repeat: spec.repeat,
            timeout: spec.timeout,
            local_deadline: spec.local_deadline,
        }))
    });
    services
        .into_iter()
        .map(Node::LockService)
        .chain([Node::Resource(resource)])
        .chain(clients)
        .zip(cast.nodes())
        .map(|(node, id)| Slot {
            node,
            clock: LocalClock::default(),
            reading: cast.reading(id),
            process: Process::Running,
            buffer: VecDeque::new(),
            incarnation: 0,
            pauses: 0,
            believes: false,
        })
        .collect()
}

/// The lock service's nodes, one per name the cast gives it.
fn build_services(spec: &LockServiceSpec, cast: &Cast) -> Vec<LockService> {
    match spec {
        LockServiceSpec::SqlRow {
            lock_name,
            last_token,
        } => vec![LockService::new(Backend::SqlRow(SqlRow::new(
            lock_name.clone(),
            FencingToken(*last_token),
        )))],
        LockServiceSpec::Cache {
            key,
            tokens,
            last_token,
        } => vec![LockService::new(Backend::Cache(CacheLock::new(
            key.clone(),
            *tokens,
            FencingToken(*last_token),
        )))],
        LockServiceSpec::Redlock {
            persistence,
            restart_delay_ms,
            ..
        } => cast
            .services()
            .map(|_| {
                let mut store =
                    CacheLock::new("lock".to_owned(), TokenSource::None, FencingToken(0));
                store.persistence = *persistence;
                store.restart_delay = *restart_delay_ms;
                LockService::new(Backend::Cache(store))
            })
            .collect(),
        LockServiceSpec::Consensus {
            replicas,
            heartbeat_ms,
            election_timeout_ms,
            lock_delay_ms,
            waiters,
            bug,
            // The system only names the replicas (`LockServiceSpec::node_names`).
            system: _,
        } => {
            let config = ConsensusConfig {
                replicas: *replicas,
                heartbeat: *heartbeat_ms,
                election_timeout: *election_timeout_ms,
                lock_delay: *lock_delay_ms,
                waiters: *waiters,
                bug: *bug,
            };
            (0..*replicas)
                .map(|me| LockService::new(Backend::Consensus(Replica::new(me, config))))
                .collect()
        }
        LockServiceSpec::DataGrid { members } => cast
            .services()
            .map(|_| {
                LockService::new(Backend::Grid(GridMember {
                    store: CacheLock::new("lock".to_owned(), TokenSource::None, FencingToken(0)),
                    members: *members,
                }))
            })
            .collect(),
        LockServiceSpec::ReplicatedCache {
            key,
            tokens,
            last_token,
            failover_after_ms,
            replication_lag_ms,
        } => replicated_pair(
            cast,
            key,
            *tokens,
            *last_token,
            *failover_after_ms,
            *replication_lag_ms,
        ),
    }
}

/// A replicated cache's primary and replica, each the other's peer.
fn replicated_pair(
    cast: &Cast,
    key: &str,
    tokens: TokenSource,
    last_token: u64,
    failover_after: Millis,
    lag: Millis,
) -> Vec<LockService> {
    let mut pair = cast.services();
    let (primary, replica) = (
        pair.next().unwrap_or(NodeId(0)),
        pair.next().unwrap_or(NodeId(1)),
    );
    [(Role::Primary, replica), (Role::Replica, primary)]
        .into_iter()
        .map(|(role, peer)| {
            LockService::new(Backend::Replicated(Replicated {
                role,
                store: CacheLock::new(key.to_owned(), tokens, FencingToken(last_token)),
                peer,
                failover_after,
                lag,
                shipping: None,
            }))
        })
        .collect()
}

/// The resource node.
fn build_resource(spec: &ResourceSpec) -> Resource {
    match spec {
        ResourceSpec::Register {
            fencing,
            initial_value,
            token_memory,
        } => Resource::Register(Register::new(*fencing, *token_memory, *initial_value)),
        ResourceSpec::Inventory {
            fencing,
            sku,
            quantity,
        } => Resource::Inventory(Inventory::new(*fencing, sku.clone(), *quantity)),
        ResourceSpec::Payments { idempotency } => Resource::Payments(Payments::new(*idempotency)),
    }
}
