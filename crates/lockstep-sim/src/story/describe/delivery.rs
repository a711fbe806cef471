//! The narration of one domain's events: a function per kind of happening, given its fields by
//! `describe`'s exhaustive match.
//! Inputs a node could not use, and messages the network lost.

use super::narrator::Narrator;
use super::words::{input_words, message_words};
use crate::vocabulary::happening::Input;
use crate::vocabulary::loss::Loss;
use crate::world::ids::{MessageId, NodeId};

// What became of an input a node could not use, or a message that was lost.

pub(super) fn ignored(narrator: &Narrator<'_>, node: NodeId, message: Option<MessageId>) -> String {
    let Narrator { network, .. } = *narrator;
    match message {
        Some(message) => format!(
            "{} ignores {}: it no longer needs it.",
            narrator.name(node),
            message_words(message, network).replacen("The", "the", 1)
        ),
        None => format!(
            "{} ignores a timer it no longer needs.",
            narrator.name(node)
        ),
    }
}

pub(super) fn buffered(narrator: &Narrator<'_>, node: NodeId, input: Input) -> String {
    let Narrator { network, .. } = *narrator;
    format!(
        "{} reaches {} while it is paused: it waits until {} resumes.",
        input_words(input, network),
        narrator.name(node),
        narrator.name(node)
    )
}

pub(super) fn lost(narrator: &Narrator<'_>, node: NodeId, message: MessageId, why: Loss) -> String {
    let Narrator { network, .. } = *narrator;
    format!(
        "{} to {} is lost: {}.",
        message_words(message, network),
        narrator.name(node),
        match why {
            Loss::ReceiverCrashed => format!("{} has crashed", narrator.name(node)),
            Loss::Partition => "the link is cut".to_owned(),
            Loss::Chance => "the network dropped it".to_owned(),
            Loss::Dropped => "it was dropped by hand".to_owned(),
        }
    )
}
