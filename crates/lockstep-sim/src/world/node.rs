//! The contract between the simulation and the nodes it runs.
//!
//! A node is a pure state machine: it is handed one input at a time together with a [`Ctx`], and
//! answers by pushing [`Command`]s and returning a [`Happening`] that says, in domain terms, what it
//! did. Nodes never see the event queue, the network, the PRNG or each other; that is what makes a
//! run replayable from its inputs alone.

use crate::vocabulary::happening::Happening;
use crate::vocabulary::message::Payload;
use crate::vocabulary::timer::TimerKind;
use crate::vocabulary::timer::TimerSpan;
use crate::world::ids::{MessageId, NodeId, TimerId};
use crate::world::time::{LocalTime, VirtualTime};

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
