//! A node's process: paused and resumed, crashed and restarted, a replicated primary failed
//! over. The engine owns this state; a node never learns it was paused except by its clock.
//!
//! It applies what an intervention asks; it does not read the intervention log.

use super::interventions::no_effect;
use super::{Handled, Node, Process, Sim, Slot};
use crate::engine::queue::Due;
use crate::engine::trace::Cause;
use crate::models::lock_service::{Backend, LockService, Replicated, Role};
use crate::vocabulary::happening::{Happening, NoEffect};
use crate::world::ids::NodeId;
use crate::world::time::Millis;

impl Sim {
    pub(super) fn pause(&mut self, node: NodeId, for_ms: Option<Millis>) -> Happening {
        let now = self.now;
        let slot = &mut self.slots[node.index()];
        match slot.process {
            Process::Paused { .. } => return no_effect(NoEffect::AlreadyPaused),
            Process::Crashed { .. } => return no_effect(NoEffect::AlreadyCrashed),
            Process::Running => {}
        }
        slot.pauses += 1;
        let epoch = slot.pauses;
        slot.process = Process::Paused { since: now, epoch };
        if let Some(span) = for_ms {
            self.queue
                .schedule(now.after(span), Due::PauseEnds(node, epoch));
        }
        Happening::Paused { node, for_ms }
    }

    pub(super) fn resume(&mut self, node: NodeId, cause: Cause) -> Handled {
        let now = self.now;
        let slot = &mut self.slots[node.index()];
        let since = match slot.process {
            Process::Paused { since, .. } => since,
            _ => now,
        };
        slot.process = Process::Running;
        let waiting = slot.buffer.len();
        for _ in 0..waiting {
            self.queue.schedule(now, Due::Drain(node));
        }
        Handled {
            actor: node,
            cause,
            happening: Happening::Resumed {
                node,
                paused_for: now.since(since),
                waiting: u32::try_from(waiting).unwrap_or(u32::MAX),
            },
        }
    }

    pub(super) fn crash(&mut self, node: NodeId) -> Happening {
        let now = self.now;
        let slot = &mut self.slots[node.index()];
        if matches!(slot.process, Process::Crashed { .. }) {
            return no_effect(NoEffect::AlreadyCrashed);
        }
        slot.process = Process::Crashed { since: now };
        slot.incarnation += 1;
        slot.buffer.clear();
        let incarnation = slot.incarnation;
        let local = slot.local_time(now);
        let (mut lost, mut forgot_token) = (None, None);
        match &mut slot.node {
            Node::Client(client) => client.crash(),
            Node::Resource(resource) => forgot_token = resource.crash(),
            Node::LockService(service) => {
                lost = service.crash(local);
                if let Backend::Replicated(Replicated {
                    role: Role::Primary,
                    failover_after,
                    ..
                }) = &service.backend
                {
                    let at = now.after(*failover_after);
                    self.queue.schedule(at, Due::Failover(node, incarnation));
                }
            }
        }
        Happening::Crashed {
            node,
            lost,
            forgot_token,
        }
    }

    pub(super) fn restart(&mut self, node: NodeId) -> Happening {
        let slot = &self.slots[node.index()];
        let Process::Crashed { since } = slot.process else {
            return no_effect(NoEffect::NotCrashed);
        };
        if let Node::LockService(service) = &slot.node {
            let until = since.after(service.restart_delay());
            if until > self.now {
                self.queue
                    .schedule(until, Due::Restart(node, slot.incarnation));
                return Happening::RestartDelayed { node, until };
            }
        }
        self.slots[node.index()].process = Process::Running;
        self.act_on(node, |node, ctx| match node {
            Node::Client(client) => client.restart(ctx),
            Node::LockService(service) => service.restart(ctx),
            Node::Resource(_) => {}
        });
        Happening::Restarted { node }
    }

    /// The monitor promotes a running replica in place of the current primary. Returns the
    /// actor (the new primary) and what happened.
    pub(super) fn failover(&mut self) -> (NodeId, Happening) {
        let now = self.now;
        let replicated = |slot: &Slot| match &slot.node {
            Node::LockService(LockService {
                backend: Backend::Replicated(node),
                ..
            }) => Some(node.clone()),
            _ => None,
        };
        let mut primary = None;
        let mut replica = None;
        for node in self.cast.services() {
            let slot = &self.slots[node.index()];
            match replicated(slot) {
                Some(n) if n.role == Role::Primary => {
                    primary = Some((node, n, slot.local_time(now)))
                }
                Some(n)
                    if n.role == Role::Replica
                        && !matches!(slot.process, Process::Crashed { .. }) =>
                {
                    replica = replica.or(Some((node, n, slot.local_time(now))));
                }
                _ => {}
            }
        }
        let (Some((from, old, old_clock)), Some((to, new, new_clock))) = (primary, replica) else {
            return (self.cast.lock_service(), no_effect(NoEffect::NoReplica));
        };
        let had = old.store.live_entry(old_clock).map(|e| e.owner);
        let has = new.store.live_entry(new_clock).map(|e| e.owner);
        let lost = had.filter(|holder| has != Some(*holder));
        for (node, role) in [(from, Role::Replica), (to, Role::Primary)] {
            self.act_on(node, |node, ctx| {
                if let Node::LockService(service) = node {
                    service.set_role(ctx, role);
                }
            });
        }
        (to, Happening::FailedOver { from, to, lost })
    }
}
