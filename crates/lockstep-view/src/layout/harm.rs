//! Which accepted writes broke what fencing protects: a write accepted with a token another
//! client had already been told it holds the lock with (stale), and a read-modify-write accepted
//! over updates its writer never read (a lost update). The trace says when `no_stale_write` and
//! `no_lost_update` first broke; a history invariant stays broken after that, so every later
//! write that broke it again is judged here, with the checker's own rule
//! (`lockstep_sim::engine::invariant`: staleness from the grants, never the resource's check).
//!
//! Reads the trace and the messages it sent; decides nothing about drawing.

use lockstep_sim::engine::sim::Sim;
use lockstep_sim::engine::trace::TraceEvent;
use lockstep_sim::vocabulary::happening::Happening;
use lockstep_sim::vocabulary::message::{AcquireReply, Payload};
use lockstep_sim::world::ids::NodeId;
use lockstep_sim::world::token::FencingToken;
use std::collections::BTreeMap;

/// What an accepted write broke (the layout marks it with a `MarkKind` of the same name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Harm {
    Stale { token: FencingToken },
    LostUpdate { token: Option<FencingToken> },
}

/// The grants told so far: the highest token each client was told it holds the lock with.
#[derive(Clone, Debug, Default)]
pub struct Grants {
    told_to: BTreeMap<NodeId, FencingToken>,
}

impl Grants {
    /// Takes in the grants `event` told (read from the messages it sent, as the checker does).
    pub fn hear(&mut self, sim: &Sim, event: &TraceEvent) {
        for (client, token) in told(sim, event) {
            let told = self.told_to.entry(client).or_insert(token);
            *told = (*told).max(token);
        }
    }

    /// Whether a write by `writer` with `token` is stale: another client was told a higher one.
    pub fn is_stale(&self, writer: NodeId, token: FencingToken) -> bool {
        self.told_to
            .iter()
            .any(|(&client, &told)| client != writer && told > token)
    }

    /// The mark of an accepted write that did harm (stale first: that is what fencing is for),
    /// or `None` for a good write and for anything else.
    pub fn harm(&self, happening: &Happening) -> Option<Harm> {
        match *happening {
            Happening::WriteAccepted {
                writer,
                token,
                overwrote_unseen,
                ..
            } => match (token, overwrote_unseen) {
                (Some(token), _) if self.is_stale(writer, token) => Some(Harm::Stale { token }),
                (token, Some(_)) => Some(Harm::LostUpdate { token }),
                _ => None,
            },
            Happening::StockTaken {
                buyer,
                token: Some(token),
                ..
            } if self.is_stale(buyer, token) => Some(Harm::Stale { token }),
            _ => None,
        }
    }
}

/// The clients `event` told they hold the lock, and with which token.
pub fn told(sim: &Sim, event: &TraceEvent) -> Vec<(NodeId, FencingToken)> {
    let cast = sim.cast();
    let messages = sim.network().messages();
    event
        .sent_messages()
        .filter_map(|id| messages.get(id.index()))
        .filter(|m| cast.is_service(m.from))
        .filter_map(|m| match m.payload {
            Payload::AcquireReply {
                reply: AcquireReply::Granted { token: Some(token) },
                ..
            } => Some((m.to, token)),
            _ => None,
        })
        .collect()
}
