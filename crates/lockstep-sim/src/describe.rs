//! The narration: one plain-language sentence (sometimes two) per event.
//!
//! Voice: short, present tense, concrete; the reason in one sentence. This module only words what
//! a `Happening` already says; it decides nothing and must not be needed by the simulation.

use crate::client::NextStep;
use crate::happening::{Direction, Happening, Input, NoEffect, WorkResult};
use crate::message::{Refusal, WriteOutcome};
use crate::network::{Loss, Network};
use crate::node::TimerKind;
use crate::scenario::Cast;
use crate::token::FencingToken;

pub fn describe(happening: &Happening, cast: &Cast, network: &Network) -> String {
    let n = |node| cast.name(node);
    match *happening {
        Happening::AskedForLock { client, ttl } => {
            format!(
                "{} asks {} for the lock with a lease of {ttl}.",
                n(client),
                n(Cast::LOCK_SERVICE)
            )
        }
        Happening::Granted { client, token, ttl } => format!(
            "{} grants the lock to {}{}; the lease lasts {ttl} by the service's clock.",
            n(Cast::LOCK_SERVICE),
            n(client),
            with_token(token)
        ),
        Happening::Refused { client, holder } => format!(
            "{} refuses {}: {}.",
            n(Cast::LOCK_SERVICE),
            n(client),
            holder.map_or("the lock is held elsewhere".to_owned(), |h| format!(
                "{} holds an unexpired lease",
                n(h)
            ))
        ),
        Happening::GotLock {
            client,
            token,
            next,
        } => format!(
            "{} learns it holds the lock{} and {}.",
            n(client),
            with_token(token),
            match next {
                NextStep::Read => format!("reads the {}", n(Cast::RESOURCE)),
                NextStep::Work(work) => format!("starts {work} of work"),
            }
        ),
        Happening::WillRetry {
            client,
            retries_left,
        } => format!(
            "{} is told the lock is held elsewhere and will try again ({retries_left} {} left).",
            n(client),
            if retries_left == 1 {
                "retry"
            } else {
                "retries"
            }
        ),
        Happening::GaveUp { client } => format!("{} gives up: lock held elsewhere.", n(client)),
        Happening::ReadServed {
            reader,
            value,
            version,
        } => {
            format!(
                "The {} returns value {value} (version {version}) to {}.",
                n(Cast::RESOURCE),
                n(reader)
            )
        }
        Happening::ReadReturned {
            client,
            value,
            version,
            work,
        } => format!(
            "{} reads value {value} (version {version}) and starts {work} of work on it.",
            n(client)
        ),
        Happening::WriteSent {
            client,
            token,
            value,
        } => match token {
            Some(token) => format!(
                "{} writes {value} to the {} with token {token}.",
                n(client),
                n(Cast::RESOURCE)
            ),
            None => format!(
                "{} writes {value} to the {} without a token.",
                n(client),
                n(Cast::RESOURCE)
            ),
        },
        Happening::WriteAccepted {
            writer,
            token,
            value,
            version,
            overwrote_unseen,
        } => {
            let mut text = format!(
                "The {} accepts {}'s write of {value}{} (now version {version}).",
                n(Cast::RESOURCE),
                n(writer),
                with_token(token)
            );
            if let Some(unseen) = overwrote_unseen {
                let lost = unseen.current_version - unseen.read_version;
                text.push_str(&format!(
                    " {} read version {} but the value has changed {lost} {} since: {} lost.",
                    n(writer),
                    unseen.read_version,
                    if lost == 1 { "time" } else { "times" },
                    if lost == 1 {
                        "that update is"
                    } else {
                        "those updates are"
                    },
                ));
            }
            text
        }
        Happening::WriteRejected { writer, refusal } => match refusal {
            Refusal::StaleToken {
                presented,
                required,
            } => format!(
                "The {} rejects {}'s write with token {presented}: it has already accepted token {required} ({presented} < {required}).",
                n(Cast::RESOURCE),
                n(writer)
            ),
            Refusal::NoToken => format!(
                "The {} rejects {}'s write: fencing is on and the write carries no token.",
                n(Cast::RESOURCE),
                n(writer)
            ),
        },
        Happening::WriteAnswered {
            client, outcome, ..
        } => match outcome {
            WriteOutcome::Accepted { .. } => {
                format!(
                    "{} learns its write was accepted and releases the lock.",
                    n(client)
                )
            }
            WriteOutcome::Rejected(_) => format!(
                "{} learns its write was fenced off and releases the lock in its finally block.",
                n(client)
            ),
        },
        Happening::Released { client, token } => format!(
            "{} clears the lease of {}{}: the lock is free.",
            n(Cast::LOCK_SERVICE),
            n(client),
            with_token(token)
        ),
        Happening::LeaseExpired { holder, token } => format!(
            "{}'s lease{} expires at {}. Nobody tells {}.",
            n(holder),
            with_token(token),
            n(Cast::LOCK_SERVICE),
            n(holder)
        ),
        Happening::ReleaseRefused {
            client,
            token,
            holder,
            current,
        } => format!(
            "{} ignores {}'s release{}: {}.",
            n(Cast::LOCK_SERVICE),
            n(client),
            with_token(token),
            match holder {
                Some(h) if h != client =>
                    format!("the row belongs to {} with token {current}", n(h)),
                _ => format!(
                    "the row's token is now {current}, so this lease is no longer the current one"
                ),
            }
        ),
        Happening::Finished { client, result, .. } => match result {
            WorkResult::Done => format!("{} is done: its work was applied.", n(client)),
            WorkResult::HeldElsewhere => format!("{} stops: lock held elsewhere.", n(client)),
            WorkResult::Fenced {
                presented,
                required,
            } => format!(
                "{} stops: fenced (it presented token {presented}, the {} required {required}).",
                n(client),
                n(Cast::RESOURCE)
            ),
            WorkResult::NoToken => format!("{} stops: its write had no token.", n(client)),
        },
        Happening::Ignored { node, payload } => match payload {
            Some(payload) => format!(
                "{} ignores a late \"{}\" message.",
                n(node),
                payload.label()
            ),
            None => format!("{} ignores a timer it no longer needs.", n(node)),
        },
        Happening::Buffered { node, input } => format!(
            "{} reaches {} while it is paused: it waits until {} resumes.",
            input_words(input, network),
            n(node),
            n(node)
        ),
        Happening::Lost { node, message, why } => format!(
            "{} to {} is lost: {}.",
            message_words(message, network),
            n(node),
            match why {
                Loss::ReceiverCrashed => format!("{} has crashed", n(node)),
                Loss::Partition => "the link is cut".to_owned(),
                Loss::Chance => "the network dropped it".to_owned(),
                Loss::Dropped => "it was dropped by hand".to_owned(),
            }
        ),
        Happening::Paused { node, for_ms } => match for_ms {
            Some(span) => format!(
                "{} is paused for {span}, as by a stop-the-world GC pause: it handles nothing until it resumes.",
                n(node)
            ),
            None => format!(
                "{} is paused until resumed: it handles nothing meanwhile.",
                n(node)
            ),
        },
        Happening::Resumed {
            node,
            paused_for,
            waiting,
        } => format!(
            "{} resumes after {paused_for} with {waiting} {} waiting. It has no idea time passed.",
            n(node),
            if waiting == 1 { "input" } else { "inputs" }
        ),
        Happening::Crashed { node } => {
            format!("{} crashes and loses everything it had in memory.", n(node))
        }
        Happening::Restarted { node } => format!("{} restarts.", n(node)),
        Happening::ClockJumped { node, by_ms } => format!(
            "{}'s clock jumps {} by {} ms.",
            n(node),
            if by_ms >= 0 { "forwards" } else { "backwards" },
            by_ms.unsigned_abs()
        ),
        Happening::DriftChanged { node, drift_ppm } => {
            format!(
                "{}'s clock now drifts by {drift_ppm} parts per million.",
                n(node)
            )
        }
        Happening::Partitioned {
            from,
            to,
            direction,
        } => match direction {
            Direction::Both => format!(
                "The network between {} and {} is cut both ways.",
                n(from),
                n(to)
            ),
            Direction::OneWay => format!("Messages from {} to {} are now lost.", n(from), n(to)),
        },
        Happening::Healed { a, b } => {
            format!("The network between {} and {} is healed.", n(a), n(b))
        }
        Happening::MessageHeld { message } => {
            format!(
                "{} is held in the network.",
                message_words(message, network)
            )
        }
        Happening::MessageReleased { message } => {
            format!(
                "{} is released and arrives now.",
                message_words(message, network)
            )
        }
        Happening::MessageDropped { message } => {
            format!("{} is dropped.", message_words(message, network))
        }
        Happening::LeaseForcedToExpire { holder } => format!(
            "{}'s lease is forced to expire at {}. {} is not told.",
            n(holder),
            n(Cast::LOCK_SERVICE),
            n(holder)
        ),
        Happening::NoEffect { why } => {
            format!("The intervention has no effect: {}.", no_effect_words(why))
        }
    }
}

fn with_token(token: Option<FencingToken>) -> String {
    token.map_or_else(|| " (no token)".to_owned(), |t| format!(" with token {t}"))
}

fn message_words(id: crate::ids::MessageId, network: &Network) -> String {
    network.message(id).map_or_else(
        || format!("Message {id}"),
        |m| format!("The \"{}\" message {id}", m.payload.label()),
    )
}

fn input_words(input: Input, network: &Network) -> String {
    match input {
        Input::Message(id) => message_words(id, network),
        Input::Timer(_, kind) => match kind {
            TimerKind::Start => "The start timer".to_owned(),
            TimerKind::WorkDone => "The end of its work".to_owned(),
            TimerKind::Retry => "The retry timer".to_owned(),
            TimerKind::LeaseExpiry => "A lease's expiry".to_owned(),
        },
    }
}

fn no_effect_words(why: NoEffect) -> &'static str {
    match why {
        NoEffect::AlreadyPaused => "the node is already paused",
        NoEffect::NotPaused => "the node is not paused",
        NoEffect::AlreadyCrashed => "the node has already crashed",
        NoEffect::NotCrashed => "the node is running",
        NoEffect::NoSuchMessage => "no such message has been sent yet",
        NoEffect::MessageNotInFlight => "the message is no longer in flight",
        NoEffect::MessageNotHeld => "the message is not held",
        NoEffect::NoLiveLease => "no lease is live",
        NoEffect::NotAClient => "only a client can do that",
    }
}
