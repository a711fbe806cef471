//! Handing a due input to its node: a message or timer offered to a running process (or buffered
//! while it is paused), the node's commands applied (messages sent, timers set), and where a
//! client's request goes.
//!
//! It decides no fault and judges no invariant: interventions and the record do that.

use super::interventions::no_effect;
use super::{Handled, MIN_TIMER_SPAN, Node, Process, Sim, Slot, TimerRecord};
use crate::engine::queue::Due;
use crate::engine::trace::Cause;
use crate::vocabulary::happening::{Happening, Input, NoEffect};
use crate::vocabulary::loss::Loss;
use crate::vocabulary::message::Payload;
use crate::vocabulary::timer::TimerKind;
use crate::vocabulary::timer::TimerSpan;
use crate::world::ids::{MessageId, NodeId, TimerId};
use crate::world::network::{Arrival, Network};
use crate::world::node::{Command, Ctx};
use crate::world::time::Millis;

impl Sim {
    pub(super) fn handle(&mut self, due: Due) -> Option<Handled> {
        match due {
            Due::Delivery(id) => match self.network.arrive(id, self.now)? {
                Arrival::Delivered { to } => {
                    self.offer(to, Input::Message(id), Cause::Input(Input::Message(id)))
                }
                // Replication traffic lost on the way is the replicas' business, not the story.
                Arrival::Lost {
                    replication: true, ..
                } => None,
                Arrival::Lost { to, why, .. } => Some(Handled {
                    actor: to,
                    cause: Cause::Input(Input::Message(id)),
                    happening: Happening::Lost {
                        node: to,
                        message: id,
                        why,
                    },
                }),
            },
            Due::Timer(node, id) => {
                let timer = *self.timers.get(id.0 as usize)?;
                let incarnation = self.slots.get(node.index())?.incarnation;
                if timer.cancelled || timer.incarnation != incarnation {
                    return None;
                }
                let input = Input::Timer(id, timer.kind);
                self.offer(node, input, Cause::Input(input))
            }
            Due::Intervention(index) => {
                let action = self.interventions.get(index as usize)?.action.clone();
                Some(self.intervene(action, Cause::Intervention(index)))
            }
            Due::PauseEnds(node, epoch) => match self.slots.get(node.index())?.process {
                Process::Paused { epoch: e, .. } if e == epoch => {
                    Some(self.resume(node, Cause::PauseEnded))
                }
                _ => None,
            },
            Due::Drain(node) => {
                let slot = self.slots.get_mut(node.index())?;
                if slot.process != Process::Running {
                    return None;
                }
                let input = slot.buffer.pop_front()?;
                Some(self.dispatch(node, input, Cause::Resumed(input)))
            }
            Due::Restart(node, incarnation) => {
                let slot = self.slots.get(node.index())?;
                let still_down = matches!(slot.process, Process::Crashed { .. })
                    && slot.incarnation == incarnation;
                still_down.then(|| Handled {
                    actor: node,
                    cause: Cause::DelayedRestart,
                    happening: self.restart(node),
                })
            }
            Due::Failover(node, incarnation) => {
                let slot = self.slots.get(node.index())?;
                let still_down = matches!(slot.process, Process::Crashed { .. })
                    && slot.incarnation == incarnation
                    && matches!(&slot.node, Node::LockService(s) if s.is_front());
                still_down.then(|| {
                    let (actor, happening) = self.failover();
                    Handled {
                        actor,
                        cause: Cause::Monitor,
                        happening,
                    }
                })
            }
        }
    }

    /// Gives an input to a node, unless its process cannot take it now.
    fn offer(&mut self, node: NodeId, input: Input, cause: Cause) -> Option<Handled> {
        let slot = self.slots.get_mut(node.index())?;
        match slot.process {
            Process::Running => Some(self.dispatch(node, input, cause)),
            Process::Paused { .. } => {
                slot.buffer.push_back(input);
                Some(Handled {
                    actor: node,
                    cause,
                    happening: Happening::Buffered { node, input },
                })
            }
            Process::Crashed { .. } => match input {
                Input::Message(message)
                    if matches!(
                        self.network.message(message).map(|m| m.payload),
                        Some(Payload::Raft(_))
                    ) =>
                {
                    self.network.lose_to_crash(message, self.now);
                    None
                }
                Input::Message(message) => {
                    self.network.lose_to_crash(message, self.now);
                    Some(Handled {
                        actor: node,
                        cause,
                        happening: Happening::Lost {
                            node,
                            message,
                            why: Loss::ReceiverCrashed,
                        },
                    })
                }
                Input::Timer(..) => None,
            },
        }
    }

    fn dispatch(&mut self, node: NodeId, input: Input, cause: Cause) -> Handled {
        let mut commands = std::mem::take(&mut self.commands);
        let mut next_timer = u32::try_from(self.timers.len()).unwrap_or(u32::MAX);
        let slot = &mut self.slots[node.index()];
        let message = match input {
            Input::Message(id) => Some(id),
            Input::Timer(..) => None,
        };
        let mut ctx = Ctx::new(
            self.now,
            slot.local_time(self.now),
            node,
            message,
            &mut commands,
            &mut next_timer,
        );
        let happening = match input {
            Input::Message(id) => match self.network.message(id) {
                Some(message) => {
                    let (from, payload) = (message.from, message.payload);
                    match &mut slot.node {
                        Node::LockService(service) => service.on_message(&mut ctx, from, payload),
                        Node::Resource(resource) => resource.on_message(&mut ctx, from, payload),
                        Node::Client(client) => client.on_message(&mut ctx, from, payload),
                    }
                }
                None => Happening::Ignored {
                    node,
                    message: None,
                },
            },
            Input::Timer(timer, kind) => match &mut slot.node {
                Node::Client(client) => client.on_timer(&mut ctx, timer, kind),
                Node::LockService(service) => service.on_timer(&mut ctx, timer, kind),
                Node::Resource(_) => Happening::Ignored {
                    node,
                    message: None,
                },
            },
        };
        self.apply(node, &mut commands);
        self.commands = commands;
        Handled {
            actor: node,
            cause,
            happening,
        }
    }

    fn apply(&mut self, node: NodeId, commands: &mut Vec<Command>) {
        for command in commands.drain(..) {
            match command {
                Command::Send { to, payload } => {
                    let (id, due) = self
                        .network
                        .send(&mut self.rng, self.now, node, to, payload);
                    self.queue.schedule(due, Due::Delivery(id));
                }
                Command::SendToService { payload } => {
                    let to = self.front_for(node);
                    let (id, due) = self
                        .network
                        .send(&mut self.rng, self.now, node, to, payload);
                    self.queue.schedule(due, Due::Delivery(id));
                }
                Command::SetTimer { id, span, kind } => {
                    let created = self.new_timer(node, kind);
                    debug_assert_eq!(created, id, "timer ids are handed out in order");
                    let local = match span {
                        TimerSpan::Fixed(span) => span,
                        TimerSpan::Between(low, high) => Millis(self.rng.between(low.0, high.0)),
                    };
                    // A timer never fires at the moment it is set: a node that re-arms a
                    // zero-length timer (a retry after 0 ms, a renewal every TTL/3 of a 2 ms
                    // lease) would otherwise loop at one virtual millisecond for ever.
                    let local = local.max(MIN_TIMER_SPAN);
                    let span = self.slots[node.index()].clock.true_span(local);
                    self.queue
                        .schedule(self.now.after(span), Due::Timer(node, created));
                }
                Command::CancelTimer(id) => {
                    if let Some(timer) = self.timers.get_mut(id.0 as usize) {
                        timer.cancelled = true;
                    }
                }
            }
        }
    }

    /// Where the lock service answers `sender` now: the first front node (the single node, the
    /// primary of a pair, any grid member) that is up and that `sender` can reach, else the first
    /// front node. Clients find it as a client library would, through discovery the simulation
    /// does not model.
    fn front_for(&self, sender: NodeId) -> NodeId {
        if self.single_node_service {
            return self.cast.lock_service();
        }
        let front = |node: &NodeId| matches!(self.slots.get(node.index()), Some(Slot { node: Node::LockService(s), .. }) if s.is_front());
        let usable = |node: &NodeId| {
            front(node)
                && !matches!(self.slots[node.index()].process, Process::Crashed { .. })
                && !self.network.is_cut(sender, *node)
        };
        self.cast
            .services()
            .find(usable)
            .or_else(|| self.cast.services().find(front))
            .unwrap_or(self.cast.lock_service())
    }

    pub(super) fn new_timer(&mut self, node: NodeId, kind: TimerKind) -> TimerId {
        let id = TimerId(u32::try_from(self.timers.len()).unwrap_or(u32::MAX));
        self.timers.push(TimerRecord {
            kind,
            incarnation: self.slots[node.index()].incarnation,
            cancelled: false,
        });
        id
    }

    /// Applies `act` to the network if the message exists; the actor is the message's sender.
    pub(super) fn on_message_of(
        &mut self,
        message: MessageId,
        act: impl FnOnce(&mut Network) -> Happening,
    ) -> (NodeId, Happening) {
        match self.network.message(message).map(|m| m.from) {
            Some(from) => (from, act(&mut self.network)),
            None => (self.cast.lock_service(), no_effect(NoEffect::NoSuchMessage)),
        }
    }

    /// Lets the engine act on a node's state machine outside of an input (a restart, a
    /// promotion), with a context, and applies the commands it gives.
    pub(super) fn act_on(&mut self, node: NodeId, act: impl FnOnce(&mut Node, &mut Ctx<'_>)) {
        let mut commands = std::mem::take(&mut self.commands);
        let mut next_timer = u32::try_from(self.timers.len()).unwrap_or(u32::MAX);
        let slot = &mut self.slots[node.index()];
        let mut ctx = Ctx::new(
            self.now,
            slot.local_time(self.now),
            node,
            None,
            &mut commands,
            &mut next_timer,
        );
        act(&mut slot.node, &mut ctx);
        self.apply(node, &mut commands);
        self.commands = commands;
    }
}
