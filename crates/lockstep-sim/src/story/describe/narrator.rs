//! The names the narration uses: the cast, the network (for messages' labels), how the lock
//! service is called from where the acting node stands, and the resource's name.

use crate::scenario::cast::Cast;
use crate::world::ids::NodeId;
use crate::world::network::Network;

#[derive(Clone, Copy)]
pub(super) struct Narrator<'a> {
    pub cast: &'a Cast,
    pub network: &'a Network,
    /// The lock service as the actor would name it.
    pub service: &'a str,
    pub resource: &'a str,
}

impl<'a> Narrator<'a> {
    /// A node's name, as the cast gives it.
    pub fn name(&self, node: NodeId) -> &'a str {
        self.cast.name(node)
    }
}
