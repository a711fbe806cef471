//! What each member of the cast is at the shown position, read from the simulation's node
//! states the way the inspector reads them: a client's belief and the token it was told (its
//! own local state, never the truth), each lock-service node's own record of who holds the lock
//! (the SQL row, a Redis node's key, a Raft replica's role and lowest key), the resource's
//! highest token seen, and whether the process is paused or down.
//!
//! It reads; it must not decide anything the simulation decides.

use crate::layout::{Lane, LaneRole};
use lockstep_sim::engine::sim::{Node, Process, Sim};
use lockstep_sim::models::lock_service::{
    Backend, GridMember, LockService, RaftRole, Replicated, Role,
};
use lockstep_sim::models::resource::Resource;
use lockstep_sim::world::ids::NodeId;
use lockstep_sim::world::token::FencingToken;

/// Whether a node's process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Liveness {
    Running,
    Paused,
    Crashed,
}

impl Liveness {
    fn of(process: Process) -> Liveness {
        match process {
            Process::Running => Liveness::Running,
            Process::Paused { .. } => Liveness::Paused,
            Process::Crashed { .. } => Liveness::Crashed,
        }
    }
}

/// What a client believes: its own state, which may be wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientView {
    pub believes: bool,
    /// The token the lock service told it (kept until it asks again).
    pub token: Option<FencingToken>,
    /// Where it is in its work ("acquiring", "writing"), as the inspector says it.
    pub state: &'static str,
}

/// A service node's part in its group, as its own state records it (the primary, a follower in
/// term 3): what the stage draws on its box. Not the simulator's `against::ServiceRole`, which
/// is the position a node would have on any service (the front or a minority, and whether it
/// granted the holder) so that an intervention can be carried onto another service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupRole {
    /// A lone node (the SQL row, one Redis, a Redlock node, a data grid's member).
    Alone,
    Primary,
    Replica,
    Leader {
        term: u32,
    },
    Follower {
        term: u32,
    },
    Candidate {
        term: u32,
    },
}

/// What a service node's own storage says about the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Record {
    /// Nobody's key or row.
    Empty,
    /// The SQL row names `holder`; `live` says whether its lease has not expired yet.
    Row {
        holder: NodeId,
        token: FencingToken,
        live: bool,
    },
    /// A cache key set by `holder` (an expired key is gone, as in Redis).
    Key {
        holder: NodeId,
        token: Option<FencingToken>,
    },
    /// A Raft replica's lowest key: etcd's lock is held by its owner; the revision is its token.
    LowestKey {
        holder: NodeId,
        revision: FencingToken,
    },
}

impl Record {
    pub fn holder(self) -> Option<NodeId> {
        match self {
            Record::Empty => None,
            Record::Row { holder, .. }
            | Record::Key { holder, .. }
            | Record::LowestKey { holder, .. } => Some(holder),
        }
    }

    pub fn token(self) -> Option<FencingToken> {
        match self {
            Record::Empty => None,
            Record::Row { token, .. } => Some(token),
            Record::Key { token, .. } => token,
            Record::LowestKey { revision, .. } => Some(revision),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServiceView {
    pub role: GroupRole,
    pub record: Record,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceView {
    /// A register or an inventory: the highest fencing token it has seen.
    Fenced {
        highest: Option<FencingToken>,
        value: i64,
    },
    /// A payments service: how much it has charged.
    Payments { charged: i64 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Client(ClientView),
    Service(ServiceView),
    Resource(ResourceView),
    /// The node is not in the simulation (an idle run).
    Unknown,
}

/// One member of the cast at the shown position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    pub node: NodeId,
    pub name: String,
    pub role: LaneRole,
    pub liveness: Liveness,
    pub view: View,
}

impl Actor {
    /// Reads lane `lane`'s node from `sim`.
    pub fn read(sim: &Sim, lane: &Lane) -> Actor {
        let (liveness, view) = match sim.slot(lane.node) {
            Some(slot) => {
                let view = match &slot.node {
                    Node::Client(client) => View::Client(ClientView {
                        believes: client.believes_it_holds_the_lock(),
                        token: client.token(),
                        state: crate::words::client_state_word(client),
                    }),
                    Node::LockService(service) => {
                        View::Service(service_view(service, slot.clock.read(sim.now())))
                    }
                    Node::Resource(resource) => View::Resource(resource_view(resource)),
                };
                (Liveness::of(slot.process), view)
            }
            None => (Liveness::Running, View::Unknown),
        };
        Actor {
            node: lane.node,
            name: lane.name.clone(),
            role: lane.role,
            liveness,
            view,
        }
    }
}

fn service_view(service: &LockService, local: lockstep_sim::world::time::LocalTime) -> ServiceView {
    match &service.backend {
        Backend::SqlRow(row) => ServiceView {
            role: GroupRole::Alone,
            record: row.holder_id.map_or(Record::Empty, |holder| Record::Row {
                holder,
                token: row.fencing_token,
                live: row.live_holder(local).is_some(),
            }),
        },
        Backend::Cache(cache)
        | Backend::Grid(GridMember { store: cache, .. })
        | Backend::Replicated(Replicated { store: cache, .. }) => ServiceView {
            role: match &service.backend {
                Backend::Replicated(Replicated {
                    role: Role::Primary,
                    ..
                }) => GroupRole::Primary,
                Backend::Replicated(_) => GroupRole::Replica,
                _ => GroupRole::Alone,
            },
            record: cache
                .live_entry(local)
                .map_or(Record::Empty, |entry| Record::Key {
                    holder: entry.owner,
                    token: entry.token,
                }),
        },
        Backend::Consensus(replica) => ServiceView {
            role: match replica.role {
                RaftRole::Leader => GroupRole::Leader { term: replica.term },
                RaftRole::Follower => GroupRole::Follower { term: replica.term },
                RaftRole::Candidate => GroupRole::Candidate { term: replica.term },
            },
            record: replica
                .table
                .holder()
                .map_or(Record::Empty, |key| Record::LowestKey {
                    holder: key.client,
                    revision: key.revision,
                }),
        },
    }
}

fn resource_view(resource: &Resource) -> ResourceView {
    match resource {
        Resource::Register(register) => ResourceView::Fenced {
            highest: register.highest_token,
            value: register.value,
        },
        Resource::Inventory(inventory) => ResourceView::Fenced {
            highest: inventory.fencing_token,
            value: inventory.quantity,
        },
        Resource::Payments(payments) => ResourceView::Payments {
            charged: payments.total,
        },
    }
}
