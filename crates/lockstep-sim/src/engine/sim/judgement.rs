//! Recording a handled input: the trace event, the invariants judged on the state after it, and
//! the counts they read (who believes it holds the lock, whose leases are live).
//!
//! It changes no node: it only reads them and appends to the trace.

use super::{Handled, Node, Process, Sim, Slot, quorum};
use crate::engine::invariant::{StateView, ToldGrant};
use crate::engine::trace::TraceEvent;
use crate::vocabulary::message::{AcquireReply, Payload};
use crate::world::ids::{EventId, MessageId, NodeId};

impl Sim {
    pub(super) fn record(&mut self, handled: Handled, sent_before: usize) -> &TraceEvent {
        self.refresh_belief(handled.actor);
        let view = self.state_view();
        let cast = &self.cast;
        let told = self
            .network
            .messages()
            .iter_from(sent_before)
            .filter(|m| cast.is_service(m.from))
            .filter_map(|m| match m.payload {
                Payload::AcquireReply {
                    reply: AcquireReply::Granted { token: Some(token) },
                    ..
                } => Some(ToldGrant {
                    client: m.to,
                    token,
                }),
                _ => None,
            });
        let verdict = self.checker.judge(&handled.happening, told, view);
        let id = EventId(u32::try_from(self.trace.len()).unwrap_or(u32::MAX));
        let sent = self.network.messages().len().saturating_sub(sent_before);
        let sent = u16::try_from(sent).unwrap_or(u16::MAX);
        let first_sent = u32::try_from(sent_before).unwrap_or(u32::MAX);
        self.trace.push(TraceEvent {
            id,
            time: self.now,
            actor: handled.actor,
            cause: handled.cause,
            happening: handled.happening,
            first_sent: MessageId(first_sent),
            sent,
            violated: verdict.violated,
            broke: verdict.broke,
        });
        &self.trace[self.trace.len() - 1]
    }

    /// Only the actor of an event can change its own belief (a client changes it by handling an
    /// input, or by crashing), so the count of believers is kept up to date from the actor alone
    /// instead of asking every client after every event.
    fn refresh_belief(&mut self, actor: NodeId) {
        let Some(slot) = self.slots.get_mut(actor.index()) else {
            return;
        };
        let believes = matches!(&slot.node, Node::Client(c) if c.believes_it_holds_the_lock());
        if believes != slot.believes {
            slot.believes = believes;
            if believes {
                self.believers += 1;
            } else {
                self.believers -= 1;
            }
        }
        debug_assert_eq!(
            self.believers as usize,
            self.slots
                .iter()
                .filter(
                    |slot| matches!(&slot.node, Node::Client(c) if c.believes_it_holds_the_lock())
                )
                .count(),
            "a node other than the actor changed its belief"
        );
    }

    fn state_view(&self) -> StateView {
        let live_leases = if self.leases_can_clash {
            self.live_leases()
        } else {
            debug_assert!(self.live_leases() <= 1, "two holders where one can be");
            0
        };
        StateView {
            believers: self.believers,
            live_leases,
        }
    }

    fn live_leases(&self) -> u32 {
        u32::try_from(self.holders().count()).unwrap_or(u32::MAX)
    }

    /// Every client with a live lease on enough service nodes to count.
    pub(super) fn holders(&self) -> impl Iterator<Item = NodeId> {
        let (counts, distinct) = self.lease_counts();
        let quorum = quorum(self.protocol);
        counts
            .into_iter()
            .take(distinct)
            .filter(move |&(_, count)| count >= quorum)
            .map(|(holder, _)| holder)
    }

    /// For each client with a live lease, on how many service nodes it has one.
    fn lease_counts(&self) -> ([(NodeId, u8); 8], usize) {
        // Who holds a live lease, in the service's own terms: a client holding keys on a
        // majority of Redlock's nodes, or the holder at a front node (a single node, or the
        // primary of a pair; a crashed node's copy or a lagging replica's is no lease).
        // At most one entry per service node (seven at most): counted on the stack, since this
        // runs after every event.
        let mut counts = [(NodeId(0), 0u8); 8];
        let mut distinct = 0;
        for node in self.cast.services() {
            if let Some(
                slot @ Slot {
                    node: Node::LockService(service),
                    process: Process::Running | Process::Paused { .. },
                    ..
                },
            ) = self.slots.get(node.index())
                && service.is_front()
                && let Some((holder, _)) = service.live_lease(slot.local_time(self.now))
            {
                match counts[..distinct].iter().position(|(h, _)| *h == holder) {
                    Some(at) => counts[at].1 += 1,
                    None if distinct < counts.len() => {
                        counts[distinct] = (holder, 1);
                        distinct += 1;
                    }
                    None => {}
                }
            }
        }
        (counts, distinct)
    }
}
