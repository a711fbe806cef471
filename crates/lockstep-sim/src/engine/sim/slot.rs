//! One node of a running simulation and what the engine keeps around it: its state machine,
//! its clock, whether its process runs, and the inputs held while it is paused. Plain data that
//! the engine's files share; the engine decides what happens to it, never this module.

use crate::models::client::Client;
use crate::models::lock_service::LockService;
use crate::models::resource::Resource;
use crate::vocabulary::happening::Input;
use crate::world::clock::{LocalClock, Reading};
use crate::world::time::{LocalTime, VirtualTime};
use std::collections::VecDeque;

/// The state machine behind one node of the cast.
#[derive(Clone, Debug)]
pub enum Node {
    LockService(LockService),
    Resource(Resource),
    Client(Client),
}

/// Whether a node's process is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Process {
    Running,
    Paused { since: VirtualTime, epoch: u32 },
    Crashed { since: VirtualTime },
}

/// One node with what the engine keeps around it.
#[derive(Clone, Debug)]
pub struct Slot {
    pub node: Node,
    pub(crate) clock: LocalClock,
    /// Which reading of `clock` the node decides by (`Cast::reading`).
    pub(super) reading: Reading,
    pub process: Process,
    /// Inputs that arrived while the process was paused, handed over in order on resume.
    pub buffer: VecDeque<Input>,
    /// Counts crashes: timers set before the latest crash never fire.
    pub(super) incarnation: u32,
    pub(super) pauses: u32,
    /// Whether this node, a client, believed it held the lock after the last event it acted in.
    pub(super) believes: bool,
}

impl Slot {
    /// The time by this node's clock, in the reading it decides by.
    pub fn local_time(&self, now: VirtualTime) -> LocalTime {
        self.clock.read_by(self.reading, now)
    }
}
