//! The user's and the scenario's interventions: added to the log, and applied when due (clock
//! jumps, partitions, held and dropped messages, a lease forced to expire).
//!
//! A node's process (pause, crash, restart, failover) is `process`'s; this only dispatches to it.

use super::{Handled, Node, Process, Sim};
use crate::engine::queue::Due;
use crate::engine::trace::Cause;
use crate::vocabulary::happening::{Direction, Happening, NoEffect};
use crate::world::ids::{MessageId, NodeId};
use crate::world::intervention::{Action, Intervention};
use crate::world::time::VirtualTime;

/// An intervention added for a moment the run has already reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLate {
    pub at: VirtualTime,
    pub now: VirtualTime,
}

impl std::fmt::Display for TooLate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "an intervention at {} ms comes too late: the run is at {} ms",
            self.at.0, self.now.0
        )
    }
}

impl std::error::Error for TooLate {}

impl Sim {
    /// Adds an intervention while the run goes on, as if the log had held it from the start:
    /// from here the run is the one [`Sim::with_log`] gives with `entry` appended to the log
    /// (the counterexample search's way to strike a fault). Only a moment after `now` can be
    /// changed so; an earlier one is refused.
    pub fn add_intervention(&mut self, entry: Intervention) -> Result<(), TooLate> {
        if entry.at_ms <= self.now {
            return Err(TooLate {
                at: entry.at_ms,
                now: self.now,
            });
        }
        let ordinal = u32::try_from(self.interventions.len()).unwrap_or(u32::MAX);
        self.queue
            .add_upfront(entry.at_ms, ordinal, Due::Intervention(ordinal));
        self.interventions.push(entry);
        Ok(())
    }

    pub(super) fn intervene(&mut self, action: Action<NodeId>, cause: Cause) -> Handled {
        let now = self.now;
        let (actor, happening) = match action {
            Action::Pause { node, for_ms } => (node, self.pause(node, for_ms)),
            Action::Resume { node } => match self.slots[node.index()].process {
                Process::Paused { .. } => return self.resume(node, cause),
                _ => (node, no_effect(NoEffect::NotPaused)),
            },
            Action::Crash { node } => (node, self.crash(node)),
            Action::Restart { node } => (node, self.restart(node)),
            Action::ClockJump { node, by_ms } => (node, self.jump_clock(node, by_ms)),
            Action::ClockDrift { node, drift_ppm } => {
                self.slots[node.index()].clock.set_drift(now, drift_ppm);
                (node, Happening::DriftChanged { node, drift_ppm })
            }
            Action::Partition {
                from,
                to,
                direction,
            } => (from, self.partition(from, to, direction)),
            Action::Heal { a, b } => {
                self.network.heal(a, b);
                (a, Happening::Healed { a, b })
            }
            Action::Hold { message } => self.on_message_of(message, |network| {
                if network.hold(message, now) {
                    Happening::MessageHeld { message }
                } else {
                    no_effect(NoEffect::MessageNotInFlight)
                }
            }),
            Action::Release { message } => self.release_message(message),
            Action::Drop { message } => self.on_message_of(message, |network| {
                if network.drop_message(message, now) {
                    Happening::MessageDropped { message }
                } else {
                    no_effect(NoEffect::MessageNotInFlight)
                }
            }),
            Action::Failover {} => self.failover(),
            Action::ForceExpire {} => (self.cast.lock_service(), self.force_expire()),
        };
        Handled {
            actor,
            cause,
            happening,
        }
    }

    /// A node's clock jumps. A service node that expires keys by its wall clock sees every
    /// expiry move; a consensus replica, timing by a monotonic clock, sees none move.
    fn jump_clock(&mut self, node: NodeId, by_ms: i64) -> Happening {
        self.slots[node.index()].clock.jump(by_ms);
        self.act_on(node, |node, ctx| {
            if let Node::LockService(service) = node {
                service.rearm_expiry(ctx);
            }
        });
        Happening::ClockJumped { node, by_ms }
    }

    /// Cuts the link from `from` to `to`, and back too if `direction` says both.
    fn partition(&mut self, from: NodeId, to: NodeId, direction: Direction) -> Happening {
        self.network.cut(from, to);
        if direction == Direction::Both {
            self.network.cut(to, from);
        }
        Happening::Partitioned {
            from,
            to,
            direction,
        }
    }

    /// A held message goes on its way now.
    fn release_message(&mut self, message: MessageId) -> (NodeId, Happening) {
        let now = self.now;
        let released = self.network.release(message, now);
        if released {
            self.queue.schedule(now, Due::Delivery(message));
        }
        self.on_message_of(message, |_| {
            if released {
                Happening::MessageReleased { message }
            } else {
                no_effect(NoEffect::MessageNotHeld)
            }
        })
    }

    /// The teaching control: the lease ends wherever the service keeps it (every node of a
    /// replicated one).
    fn force_expire(&mut self) -> Happening {
        let mut holder = None;
        for node in self.cast.services().collect::<Vec<_>>() {
            self.act_on(node, |node, ctx| {
                if let Node::LockService(service) = node {
                    holder = holder.or(service.force_expire(ctx));
                }
            });
        }
        holder.map_or(no_effect(NoEffect::NoLiveLease), |holder| {
            Happening::LeaseForcedToExpire { holder }
        })
    }
}

pub(super) fn no_effect(why: NoEffect) -> Happening {
    Happening::NoEffect { why }
}
