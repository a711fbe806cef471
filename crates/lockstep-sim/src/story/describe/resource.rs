//! The narration of one domain's events: a function per kind of happening, given its fields by
//! `describe`'s exhaustive match.
//! What the protected resource does with writes, orders and charges.

use super::narrator::Narrator;
use super::words::{plural_u64, request_noun, with_token};
use crate::vocabulary::message::Refusal;
use crate::vocabulary::unseen_updates::UnseenUpdates;
use crate::world::ids::NodeId;
use crate::world::token::FencingToken;

// The resource accepts or rejects a write.

pub(super) fn write_accepted(
    narrator: &Narrator<'_>,
    writer: NodeId,
    token: Option<FencingToken>,
    value: i64,
    version: u64,
    overwrote_unseen: Option<UnseenUpdates>,
) -> String {
    let Narrator { resource, .. } = *narrator;
    let mut text = format!(
        "The {resource} accepts {}'s write of {value}{} (now version {version}).",
        narrator.name(writer),
        with_token(token)
    );
    if let Some(unseen) = overwrote_unseen {
        let lost = unseen.current_version - unseen.read_version;
        text.push_str(&format!(
            " {} read version {}, but the value changed {lost} {} since: {} lost.",
            narrator.name(writer),
            unseen.read_version,
            plural_u64(lost, "time", "times"),
            if lost == 1 {
                "that update is"
            } else {
                "those updates are"
            },
        ));
    }
    text
}

pub(super) fn write_rejected(narrator: &Narrator<'_>, writer: NodeId, refusal: Refusal) -> String {
    let Narrator { resource, cast, .. } = *narrator;
    match refusal {
        // An inventory is sent orders: a refused order is named as such.
        Refusal::StaleToken {
            presented,
            required,
        } => format!(
            "The {resource} rejects {}'s {} with token {presented}: it has already accepted token {required} ({presented} < {required}).",
            narrator.name(writer),
            request_noun(cast.request())
        ),
        Refusal::NoToken => format!(
            "The {resource} rejects {}'s {}: fencing is on and it carries no token.",
            narrator.name(writer),
            request_noun(cast.request())
        ),
        Refusal::VersionChanged { expected, actual } => format!(
            "The {resource} rejects {}'s write: it expected version {expected}, the row is at version {actual}.",
            narrator.name(writer)
        ),
        Refusal::SoldOut { wanted, left } => format!(
            "The {resource} refuses {}'s order of {wanted}: only {left} left.",
            narrator.name(writer)
        ),
        Refusal::SequencerInvalid { presented } => format!(
            "The {resource} rejects {}'s {}: the lock service says token {presented} is no longer its live lease.",
            narrator.name(writer),
            request_noun(cast.request())
        ),
        Refusal::ClaimedByAnother => format!(
            "The {resource} rejects {}'s write: another lock holder has claimed it with a different lock value since.",
            narrator.name(writer)
        ),
    }
}

// A sequencer's word, orders and charges.

pub(super) fn sequencer_asked(
    narrator: &Narrator<'_>,
    writer: NodeId,
    token: FencingToken,
) -> String {
    let Narrator { resource, .. } = *narrator;
    format!(
        "The {resource} holds {}'s write and asks the lock service whether token {token} is still its live lease.",
        narrator.name(writer)
    )
}

pub(super) fn sequencer_answered(
    narrator: &Narrator<'_>,
    writer: NodeId,
    token: FencingToken,
    valid: bool,
) -> String {
    let Narrator {
        resource, service, ..
    } = *narrator;
    format!(
        "{service} answers the {resource}: token {token} {} {}'s live lease.",
        if valid { "is" } else { "is no longer" },
        narrator.name(writer)
    )
}

pub(super) fn stock_taken(
    narrator: &Narrator<'_>,
    buyer: NodeId,
    token: Option<FencingToken>,
    amount: i64,
    left: i64,
) -> String {
    let Narrator { resource, .. } = *narrator;
    format!(
        "The {resource} takes {amount} from stock for {}{}; {left} left.",
        narrator.name(buyer),
        with_token(token)
    )
}

pub(super) fn charge_applied(
    narrator: &Narrator<'_>,
    payer: NodeId,
    key: u32,
    amount: i64,
    times: u32,
) -> String {
    let Narrator { resource, .. } = *narrator;
    if times > 1 {
        format!(
            "The {resource} charges {amount} again for request {key} from {}: charged {times} times for one purchase.",
            narrator.name(payer)
        )
    } else {
        format!(
            "The {resource} charges {amount} for request {key} from {}.",
            narrator.name(payer)
        )
    }
}

pub(super) fn charge_replayed(narrator: &Narrator<'_>, payer: NodeId, key: u32) -> String {
    let Narrator { resource, .. } = *narrator;
    format!(
        "The {resource} has seen request {key} before: it returns the saved answer to {} and charges nothing.",
        narrator.name(payer)
    )
}
