//! What each member of the cast is at the shown position, read from the simulation's node
//! states the way the inspector reads them: a client's belief and the token it was told (its
//! own local state, never the truth), each lock-service node's part in its group and its own
//! record of who holds the lock (`LockService::role` and `LockService::record`, the one reading
//! every view shares), the resource's highest token seen, and whether the process is paused or
//! down.
//!
//! It reads; it must not decide anything the simulation decides.

use crate::layout::{Lane, LaneRole};
use lockstep_sim::engine::sim::{Node, Process, Sim};
use lockstep_sim::models::lock_service::{LockService, NodeRole, Record};
use lockstep_sim::models::resource::Resource;
use lockstep_sim::world::ids::NodeId;
use lockstep_sim::world::time::LocalTime;
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

/// A service node's two readings, as the simulator gives them: its part in its group (the
/// primary, a follower in term 3), which the stage draws on its box, and its own record of the
/// lock. Not the simulator's `against::ServiceRole`, which is the position a node would have on
/// any service (the front or a minority, and whether it granted the holder) so that an
/// intervention can be carried onto another service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServiceView {
    pub role: NodeRole,
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
                        View::Service(service_view(service, slot.local_time(sim.now())))
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

fn service_view(service: &LockService, local: LocalTime) -> ServiceView {
    ServiceView {
        role: service.role(),
        record: service.record(local),
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
