//! Answers every lock service gives alike: a sequencer check, and what a renewal came to. In a
//! file of their own so that the designs (`consensus`) and the shared node (`mod.rs`) both use
//! them without a design importing its parent.

use crate::vocabulary::happening::Happening;
use crate::vocabulary::message::Payload;
use crate::world::ids::NodeId;
use crate::world::node::Ctx;
use crate::world::time::Millis;
use crate::world::token::FencingToken;

/// Answers a resource's `CheckSequencer` (Chubby): whether `token` is `writer`'s live lease.
pub(crate) fn answer_sequencer(
    ctx: &mut Ctx<'_>,
    resource: NodeId,
    writer: NodeId,
    token: FencingToken,
    valid: bool,
) -> Happening {
    ctx.send(
        resource,
        Payload::SequencerChecked {
            writer,
            token,
            valid,
        },
    );
    Happening::SequencerAnswered {
        writer,
        token,
        valid,
    }
}

/// What a renew request came to: renewed for `ttl`, or refused while `holder` holds the lock.
pub(crate) fn renew_outcome(
    client: NodeId,
    token: Option<FencingToken>,
    ttl: Millis,
    renewed: bool,
    holder: Option<NodeId>,
) -> Happening {
    if renewed {
        Happening::Renewed { client, token, ttl }
    } else {
        Happening::RenewRefused {
            client,
            token,
            holder,
        }
    }
}
