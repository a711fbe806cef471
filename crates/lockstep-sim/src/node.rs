//! The contract between the simulation and the nodes it runs.
//!
//! A node is a pure state machine: it is handed one input at a time together with a [`Ctx`], and
//! answers by pushing [`Command`]s and returning a [`Happening`] that says, in domain terms, what it
//! did. Nodes never see the event queue, the network, the PRNG or each other; that is what makes a
//! run replayable from its inputs alone.

use crate::happening::Happening;
use crate::ids::{MessageId, NodeId, TimerId};
use crate::message::Payload;
use crate::time::{LocalTime, Millis, VirtualTime};
use serde::{Deserialize, Serialize};

/// What a timer is for, so that the trace can say why a node woke up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimerKind {
    /// A client begins its job.
    Start,
    /// A client has finished the work it does while holding the lock.
    WorkDone,
    /// A client tries to acquire again after being refused.
    Retry,
    /// A client that checked its lease now writes (the gap a pause can fall into).
    WriteNow,
    /// A client's request went unanswered for too long.
    RequestTimeout,
    /// A client's renewal interval (TTL/3) has passed.
    Renew,
    /// A Redlock client stops waiting for the nodes that have not answered.
    RoundTimeout,
    /// A client's local deadline may have passed (no renewal acknowledged in time).
    LocalDeadline,
    /// A consensus leader's heartbeat.
    Heartbeat,
    /// A consensus follower checks whether it has heard from a leader lately.
    ElectionCheck,
    /// A lock-delay has passed: the lock may be granted again.
    LockDelayOver,
    /// A primary ships its waiting changes to its replica.
    Ship,
    /// The lock service notices that a lease has run out. Expiry itself needs no event (the
    /// row's `expires_at` decides), but a learner must see the moment it happens.
    LeaseExpiry,
}

/// How long a timer runs, by the setting node's own clock. A random span is drawn by the
/// simulation from the run's PRNG, never by the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimerSpan {
    Fixed(Millis),
    Between(Millis, Millis),
}

/// What a node asks the simulation to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Send {
        to: NodeId,
        payload: Payload,
    },
    /// Send to the lock service's current front node: the engine resolves where that is.
    SendToService {
        payload: Payload,
    },
    SetTimer {
        id: TimerId,
        span: TimerSpan,
        kind: TimerKind,
    },
    CancelTimer(TimerId),
}

/// Everything a node may know and do while handling one input.
pub struct Ctx<'a> {
    /// True time, for the trace only: a node's decisions must use `local`.
    pub now: VirtualTime,
    /// This node's own clock reading.
    pub local: LocalTime,
    pub me: NodeId,
    /// The message being handled, if the input is one.
    pub input: Option<MessageId>,
    commands: &'a mut Vec<Command>,
    next_timer: &'a mut u32,
}

impl<'a> Ctx<'a> {
    pub fn new(
        now: VirtualTime,
        local: LocalTime,
        me: NodeId,
        input: Option<MessageId>,
        commands: &'a mut Vec<Command>,
        next_timer: &'a mut u32,
    ) -> Ctx<'a> {
        Ctx {
            now,
            local,
            me,
            input,
            commands,
            next_timer,
        }
    }

    pub fn send(&mut self, to: NodeId, payload: Payload) {
        self.commands.push(Command::Send { to, payload });
    }

    pub fn send_to_service(&mut self, payload: Payload) {
        self.commands.push(Command::SendToService { payload });
    }

    pub fn set_timer(&mut self, span: TimerSpan, kind: TimerKind) -> TimerId {
        let id = TimerId(*self.next_timer);
        *self.next_timer += 1;
        self.commands.push(Command::SetTimer { id, span, kind });
        id
    }

    pub fn cancel_timer(&mut self, id: TimerId) {
        self.commands.push(Command::CancelTimer(id));
    }
}

/// The role-independent answer of a node that received something it has no use for in its
/// current state (a late reply, say). Keeping these in the trace shows the user why a message
/// "did nothing".
pub fn ignored(ctx: &Ctx<'_>) -> Happening {
    Happening::Ignored {
        node: ctx.me,
        message: ctx.input,
    }
}
