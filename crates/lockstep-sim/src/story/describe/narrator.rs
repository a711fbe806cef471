//! The names the narration uses: the cast, the network (for messages' labels and what the event
//! sent), how the lock service is called from where the acting node stands, and the resource's
//! name.

use crate::engine::trace::{Cause, TraceEvent};
use crate::scenario::cast::Cast;
use crate::vocabulary::happening::Input;
use crate::vocabulary::message::Payload;
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

    /// The releases this event confirmed, each as a sentence: a consensus leader applies a
    /// committed release and answers the next waiter in one event, and the release's answer is
    /// as much news to its client as the grant is to the next.
    pub fn releases_confirmed(&self) -> String {
        let actor = self.name(self.event.actor);
        self.sent()
            .filter_map(|m| match m.payload {
                Payload::ReleaseReply { released } => Some((self.name(m.to), released)),
                _ => None,
            })
            .map(|(client, released)| {
                if released {
                    format!("{actor} confirms {client}'s release. ")
                } else {
                    format!("{actor} tells {client} its release freed nothing. ")
                }
            })
            .collect()
    }

    /// The message this event handled, if a message (not a timer or an intervention) caused it.
    pub fn handled(&self) -> Option<&'a MessageRecord> {
        match self.event.cause {
            Cause::Input(Input::Message(id)) | Cause::Resumed(Input::Message(id)) => {
                self.network.message(id)
            }
            _ => None,
        }
    }

    /// The messages the event sent.
    pub fn sent(&self) -> impl Iterator<Item = &'a MessageRecord> + 'a {
        self.event.sent_records(self.network)
    }
}
