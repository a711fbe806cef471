//! The simulated network: latency, loss, partitions, and user control over single messages.
//!
//! Every message ever sent is kept as a [`MessageRecord`], so the timeline can draw it and the
//! inspector can list what is in flight. The network decides *whether* and *when* a message
//! arrives; it never looks inside one and never touches the event queue (the simulation
//! schedules deliveries from what `send` returns).

use crate::vocabulary::loss::Loss;
use crate::vocabulary::message::Payload;
use crate::world::ids::{MessageId, NodeId};
use crate::world::rng::SimRng;
use crate::world::shared_log::SharedLog;
use crate::world::time::{Millis, VirtualTime};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// How one direction of a link behaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkBehaviour {
    pub latency_min: Millis,
    pub latency_max: Millis,
    /// Probability that a message is lost, in parts per million.
    pub loss_per_million: u32,
}

/// Where a message is now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum MessageStatus {
    InFlight,
    /// Held by the user: it will not arrive until released.
    Held {
        since: VirtualTime,
    },
    Delivered {
        at: VirtualTime,
    },
    Lost {
        at: VirtualTime,
        why: Loss,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageRecord {
    pub id: MessageId,
    pub from: NodeId,
    pub to: NodeId,
    pub payload: Payload,
    pub sent_at: VirtualTime,
    /// When it is due to arrive (moved when a held message is released).
    pub due_at: VirtualTime,
    pub status: MessageStatus,
    /// Set when the message will be lost on arrival: the link was cut when it was sent, or the
    /// link's random loss struck.
    pub doomed: Option<Loss>,
}

/// What becomes of a message that comes due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    Delivered {
        to: NodeId,
    },
    /// `replication` tells traffic between a service's replicas from the rest.
    Lost {
        to: NodeId,
        why: Loss,
        replication: bool,
    },
}

/// The network between all nodes.
#[derive(Clone, Debug)]
pub struct Network {
    default_link: LinkBehaviour,
    links: BTreeMap<(NodeId, NodeId), LinkBehaviour>,
    /// Directed cuts: a message from `.0` to `.1` is lost.
    cuts: BTreeSet<(NodeId, NodeId)>,
    /// Every message ever sent, by id: shared between copies of a simulation (see
    /// [`SharedLog`]).
    messages: SharedLog<MessageRecord>,
}

impl Network {
    pub fn new(
        default_link: LinkBehaviour,
        links: BTreeMap<(NodeId, NodeId), LinkBehaviour>,
    ) -> Network {
        Network {
            default_link,
            links,
            cuts: BTreeSet::new(),
            messages: SharedLog::new(),
        }
    }

    fn link(&self, from: NodeId, to: NodeId) -> LinkBehaviour {
        self.links
            .get(&(from, to))
            .copied()
            .unwrap_or(self.default_link)
    }

    /// Records a message and returns when it comes due. Its fate is sealed now if the link is cut
    /// or the link's random loss strikes, but a lost message still comes due, so that its loss is
    /// an event in the trace at the moment it would have arrived. The random draws happen in a
    /// fixed order (latency, then loss), and how many a message takes depends only on its link's
    /// settings, never on what happened to earlier messages.
    pub fn send(
        &mut self,
        rng: &mut SimRng,
        now: VirtualTime,
        from: NodeId,
        to: NodeId,
        payload: Payload,
    ) -> (MessageId, VirtualTime) {
        let link = self.link(from, to);
        let latency = Millis(rng.between(link.latency_min.0, link.latency_max.0));
        let lost_by_chance = rng.chance(link.loss_per_million);
        let id = MessageId(u32::try_from(self.messages.len()).unwrap_or(u32::MAX));
        let doomed = if self.is_cut(from, to) {
            Some(Loss::Partition)
        } else if lost_by_chance {
            Some(Loss::Chance)
        } else {
            None
        };
        let due_at = now.after(latency);
        self.messages.push(MessageRecord {
            id,
            from,
            to,
            payload,
            sent_at: now,
            due_at,
            status: MessageStatus::InFlight,
            doomed,
        });
        (id, due_at)
    }

    pub fn is_cut(&self, from: NodeId, to: NodeId) -> bool {
        self.cuts.contains(&(from, to))
    }

    pub fn cut(&mut self, from: NodeId, to: NodeId) {
        self.cuts.insert((from, to));
    }

    pub fn heal(&mut self, a: NodeId, b: NodeId) {
        self.cuts.remove(&(a, b));
        self.cuts.remove(&(b, a));
    }

    pub fn cuts(&self) -> impl Iterator<Item = (NodeId, NodeId)> + '_ {
        self.cuts.iter().copied()
    }

    pub fn message(&self, id: MessageId) -> Option<&MessageRecord> {
        self.messages.get(id.index())
    }

    pub fn messages(&self) -> &SharedLog<MessageRecord> {
        &self.messages
    }

    pub fn in_flight(&self) -> impl Iterator<Item = &MessageRecord> {
        self.messages.iter().filter(|m| {
            matches!(
                m.status,
                MessageStatus::InFlight | MessageStatus::Held { .. }
            )
        })
    }

    /// Called when a delivery comes due. Returns `None` if the entry is stale (the message was
    /// held, dropped or rescheduled meanwhile).
    pub fn arrive(&mut self, id: MessageId, now: VirtualTime) -> Option<Arrival> {
        let cut = {
            let m = self.messages.get(id.index())?;
            if m.status != MessageStatus::InFlight || m.due_at != now {
                return None;
            }
            self.is_cut(m.from, m.to)
        };
        let m = self.messages.get_mut(id.index())?;
        let loss = m.doomed.or(cut.then_some(Loss::Partition));
        Some(match loss {
            Some(why) => {
                m.status = MessageStatus::Lost { at: now, why };
                Arrival::Lost {
                    to: m.to,
                    why,
                    replication: matches!(m.payload, Payload::Raft(_)),
                }
            }
            None => {
                m.status = MessageStatus::Delivered { at: now };
                Arrival::Delivered { to: m.to }
            }
        })
    }

    /// Marks a delivered message as lost because its receiver had crashed.
    pub fn lose_to_crash(&mut self, id: MessageId, now: VirtualTime) {
        if let Some(m) = self.messages.get_mut(id.index()) {
            m.status = MessageStatus::Lost {
                at: now,
                why: Loss::ReceiverCrashed,
            };
        }
    }

    /// Holds an in-flight message. Returns false if there is no such message in flight.
    pub fn hold(&mut self, id: MessageId, now: VirtualTime) -> bool {
        match self.messages.get_mut(id.index()) {
            Some(m) if m.status == MessageStatus::InFlight => {
                m.status = MessageStatus::Held { since: now };
                true
            }
            _ => false,
        }
    }

    /// Lets a held message go; it arrives at `now`. Returns false if it was not held.
    pub fn release(&mut self, id: MessageId, now: VirtualTime) -> bool {
        match self.messages.get_mut(id.index()) {
            Some(m) if matches!(m.status, MessageStatus::Held { .. }) => {
                m.status = MessageStatus::InFlight;
                m.due_at = now;
                true
            }
            _ => false,
        }
    }

    /// Drops an in-flight or held message. Returns false if it was neither.
    pub fn drop_message(&mut self, id: MessageId, now: VirtualTime) -> bool {
        match self.messages.get_mut(id.index()) {
            Some(m)
                if matches!(
                    m.status,
                    MessageStatus::InFlight | MessageStatus::Held { .. }
                ) =>
            {
                m.status = MessageStatus::Lost {
                    at: now,
                    why: Loss::Dropped,
                };
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net(min: u64, max: u64, loss: u32) -> Network {
        Network::new(
            LinkBehaviour {
                latency_min: Millis(min),
                latency_max: Millis(max),
                loss_per_million: loss,
            },
            BTreeMap::new(),
        )
    }

    const A: NodeId = NodeId(0);
    const B: NodeId = NodeId(1);

    #[test]
    fn latency_is_drawn_within_the_link_range() {
        let mut network = net(3, 7, 0);
        let mut rng = SimRng::from_seed(9);
        for _ in 0..200 {
            let (_, due) = network.send(
                &mut rng,
                VirtualTime(100),
                A,
                B,
                Payload::Read { claim: None },
            );
            assert!((103..=107).contains(&due.0), "due at {due:?}");
        }
    }

    #[test]
    fn a_cut_link_loses_messages_one_way_only() {
        let mut network = net(1, 1, 0);
        let mut rng = SimRng::from_seed(1);
        network.cut(A, B);
        let fate = |network: &mut Network, rng: &mut SimRng, from, to| {
            let (id, due) =
                network.send(rng, VirtualTime(0), from, to, Payload::Read { claim: None });
            network.arrive(id, due)
        };
        assert!(matches!(
            fate(&mut network, &mut rng, A, B),
            Some(Arrival::Lost {
                why: Loss::Partition,
                ..
            })
        ));
        assert!(matches!(
            fate(&mut network, &mut rng, B, A),
            Some(Arrival::Delivered { .. })
        ));
        network.heal(B, A);
        assert!(matches!(
            fate(&mut network, &mut rng, A, B),
            Some(Arrival::Delivered { .. })
        ));
    }

    #[test]
    fn a_partition_that_starts_mid_flight_loses_the_message() {
        let mut network = net(5, 5, 0);
        let mut rng = SimRng::from_seed(1);
        let (id, due) = network.send(
            &mut rng,
            VirtualTime(0),
            A,
            B,
            Payload::Read { claim: None },
        );
        network.cut(A, B);
        assert!(matches!(
            network.arrive(id, due),
            Some(Arrival::Lost {
                why: Loss::Partition,
                ..
            })
        ));
        assert!(matches!(
            network.message(id).unwrap().status,
            MessageStatus::Lost {
                why: Loss::Partition,
                ..
            }
        ));
    }

    #[test]
    fn held_messages_arrive_only_after_release() {
        let mut network = net(5, 5, 0);
        let mut rng = SimRng::from_seed(1);
        let (id, due) = network.send(
            &mut rng,
            VirtualTime(0),
            A,
            B,
            Payload::Read { claim: None },
        );
        assert!(network.hold(id, VirtualTime(2)));
        assert_eq!(network.arrive(id, due), None);
        assert!(network.release(id, VirtualTime(50)));
        assert!(network.arrive(id, VirtualTime(50)).is_some());
        assert!(!network.release(id, VirtualTime(60)));
    }

    #[test]
    fn total_loss_loses_everything() {
        let mut network = net(1, 2, 1_000_000);
        let mut rng = SimRng::from_seed(3);
        assert!((0..50).all(|_| {
            let (id, due) = network.send(
                &mut rng,
                VirtualTime(0),
                A,
                B,
                Payload::Read { claim: None },
            );
            matches!(
                network.arrive(id, due),
                Some(Arrival::Lost {
                    why: Loss::Chance,
                    ..
                })
            )
        }));
    }
}
