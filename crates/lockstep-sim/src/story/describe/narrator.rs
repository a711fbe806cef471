//! The names the narration uses: the cast, the network (for messages' labels and what the event
//! sent), how the lock service is called from where the acting node stands, and the resource's
//! name.

use crate::engine::trace::TraceEvent;
use crate::scenario::cast::Cast;
use crate::world::ids::NodeId;
use crate::world::network::{MessageRecord, Network};

#[derive(Clone, Copy)]
pub(super) struct Narrator<'a> {
    pub cast: &'a Cast,
    pub network: &'a Network,
    /// The event being told: what it sent is part of what it says.
    pub event: &'a TraceEvent,
    /// The lock service as the actor would name it.
    pub service: &'a str,
    pub resource: &'a str,
}

impl<'a> Narrator<'a> {
    /// A node's name, as the cast gives it.
    pub fn name(&self, node: NodeId) -> &'a str {
        self.cast.name(node)
    }

    /// The messages the event sent.
    pub fn sent(&self) -> impl Iterator<Item = &'a MessageRecord> + 'a {
        let network = self.network;
        self.event
            .sent_messages()
            .filter_map(move |id| network.message(id))
    }
}
