//! The faults a search can strike, resolved against the base's cast, and the interventions each
//! one becomes. A fault that ends by itself (a partition healing, a held message let go) is
//! written as two interventions, both added when it strikes, so the counterexample replays from
//! its scenario file alone.
//!
//! This module lists choices; it never runs a simulation.

use super::config::{FaultBudget, ServiceFaults};
use crate::scenario::cast::Cast;
use crate::vocabulary::happening::Direction;
use crate::world::ids::{MessageId, NodeId};
use crate::world::intervention::{Action, Intervention};
use crate::world::network::Network;
use crate::world::time::{Millis, VirtualTime};

/// One fault, at no moment yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    Pause {
        node: NodeId,
        for_ms: Millis,
    },
    Partition {
        client: NodeId,
        other: NodeId,
        for_ms: Millis,
    },
    /// A cut between two service nodes (`from` → `to`, or both ways), healed after `for_ms`.
    ServicePartition {
        from: NodeId,
        to: NodeId,
        direction: Direction,
        for_ms: Millis,
    },
    /// A service node crashes and restarts `for_ms` later.
    Crash {
        node: NodeId,
        for_ms: Millis,
    },
    ClockJump {
        node: NodeId,
        by_ms: i64,
    },
    /// Hold the message in flight, then let it go.
    Delay {
        message: MessageId,
        for_ms: Millis,
    },
}

impl Fault {
    /// The interventions that strike this fault at `at`.
    pub fn interventions(self, at: VirtualTime) -> Vec<Intervention> {
        let strike = |action| Intervention { at_ms: at, action };
        match self {
            Fault::Pause { node, for_ms } => vec![strike(Action::Pause {
                node,
                for_ms: Some(for_ms),
            })],
            Fault::Partition {
                client,
                other,
                for_ms,
            } => vec![
                strike(Action::Partition {
                    from: client,
                    to: other,
                    direction: Direction::Both,
                }),
                Intervention {
                    at_ms: at.after(for_ms),
                    action: Action::Heal {
                        a: client,
                        b: other,
                    },
                },
            ],
            Fault::ServicePartition {
                from,
                to,
                direction,
                for_ms,
            } => vec![
                strike(Action::Partition {
                    from,
                    to,
                    direction,
                }),
                Intervention {
                    at_ms: at.after(for_ms),
                    action: Action::Heal { a: from, b: to },
                },
            ],
            Fault::Crash { node, for_ms } => vec![
                strike(Action::Crash { node }),
                Intervention {
                    at_ms: at.after(for_ms),
                    action: Action::Restart { node },
                },
            ],
            Fault::ClockJump { node, by_ms } => vec![strike(Action::ClockJump { node, by_ms })],
            Fault::Delay { message, for_ms } => vec![
                strike(Action::Hold { message }),
                Intervention {
                    at_ms: at.after(for_ms),
                    action: Action::Release { message },
                },
            ],
        }
    }
}

/// The faults of a budget that do not depend on the moment, in a fixed order: pauses of each
/// client, partitions of each client from each other non-client node, clock jumps of each
/// service node, then the service's own faults (`service_faults`).
pub fn standing_faults(budget: &FaultBudget, cast: &Cast) -> Vec<Fault> {
    let clients: Vec<NodeId> = cast.clients().collect();
    let others: Vec<NodeId> = cast.nodes().filter(|&n| !cast.is_client(n)).collect();
    let mut faults = Vec::new();
    for &node in &clients {
        for &for_ms in &budget.pauses {
            faults.push(Fault::Pause { node, for_ms });
        }
    }
    for &client in &clients {
        for &other in &others {
            for &for_ms in &budget.partitions {
                faults.push(Fault::Partition {
                    client,
                    other,
                    for_ms,
                });
            }
        }
    }
    for node in cast.services() {
        for &by_ms in &budget.clock_jumps {
            faults.push(Fault::ClockJump { node, by_ms });
        }
    }
    faults.extend(service_faults(&budget.service, cast));
    faults
}

/// Pauses of each service node, partitions between each pair of them (each one way, then both
/// ways), crashes of each.
fn service_faults(service: &ServiceFaults, cast: &Cast) -> Vec<Fault> {
    let nodes: Vec<NodeId> = cast.services().collect();
    let mut faults = Vec::new();
    for &node in &nodes {
        for &for_ms in &service.pauses {
            faults.push(Fault::Pause { node, for_ms });
        }
    }
    for (i, &a) in nodes.iter().enumerate() {
        for &b in &nodes[i + 1..] {
            for &for_ms in &service.partitions {
                for (from, to, direction) in [
                    (a, b, Direction::OneWay),
                    (b, a, Direction::OneWay),
                    (a, b, Direction::Both),
                ] {
                    faults.push(Fault::ServicePartition {
                        from,
                        to,
                        direction,
                        for_ms,
                    });
                }
            }
        }
    }
    for &node in &nodes {
        for &for_ms in &service.crashes {
            faults.push(Fault::Crash { node, for_ms });
        }
    }
    faults
}

/// The message delays possible at `at`: every message still in flight then, by id.
pub fn delays_at(budget: &FaultBudget, network: &Network, at: VirtualTime) -> Vec<Fault> {
    if budget.message_delays.is_empty() {
        return Vec::new();
    }
    let mut faults = Vec::new();
    for message in network.in_flight() {
        if message.due_at < at || message.status != crate::world::network::MessageStatus::InFlight {
            continue;
        }
        for &for_ms in &budget.message_delays {
            faults.push(Fault::Delay {
                message: message.id,
                for_ms,
            });
        }
    }
    faults
}
