//! The narration's shared words: plurals, tokens, messages, timers, clock rates, raft entries.

use crate::scenario::cast::Cast;
use crate::vocabulary::happening::{Input, NoEffect, Request};
use crate::vocabulary::next_step::NextStep;
use crate::vocabulary::raft::Op;
use crate::vocabulary::timer::TimerKind;
use crate::world::ids::MessageId;
use crate::world::network::Network;
use crate::world::token::FencingToken;

/// A clock's new rate, with what it means: "runs fast by 1000000 parts per million: 2 times as
/// fast as true time" says plainly that its timers end spans early in true time.
pub(super) fn drift_words(node: &str, drift_ppm: i32) -> String {
    const PPM: i64 = 1_000_000;
    let rate = PPM + i64::from(drift_ppm);
    let fraction = format!("{:06}", rate % PPM);
    let fraction = fraction.trim_end_matches('0');
    let times = if fraction.is_empty() {
        format!("{}", rate / PPM)
    } else {
        format!("{}.{fraction}", rate / PPM)
    };
    match drift_ppm.signum() {
        0 => format!("{node}'s clock now runs at the true rate."),
        1 => format!(
            "{node}'s clock now runs fast by {drift_ppm} parts per million: {times} times as fast as true time."
        ),
        _ => format!(
            "{node}'s clock now runs slow by {} parts per million: {times} times as fast as true time.",
            drift_ppm.unsigned_abs()
        ),
    }
}

pub(super) fn op_words(op: Op, cast: &Cast) -> String {
    match op {
        Op::Noop => "a new leader's first entry".to_owned(),
        Op::Grant {
            client, revision, ..
        } => format!(
            "grant the lock to {} with revision {revision}",
            cast.name(client)
        ),
        Op::Wait {
            client, revision, ..
        } => format!(
            "{} puts its key with revision {revision} and waits for every lower key to go",
            cast.name(client)
        ),
        Op::Release { client } => format!("{} releases the lock", cast.name(client)),
        Op::Expire { client } => format!("{}'s session expired", cast.name(client)),
    }
}

pub(super) fn next_words(next: NextStep, resource: &str) -> String {
    match next {
        NextStep::Read => format!("reads the {resource}"),
        NextStep::Work(work) => format!("starts {work} of work"),
    }
}

pub(super) fn plural(count: u32, one: &'static str, many: &'static str) -> &'static str {
    if count == 1 { one } else { many }
}

pub(super) fn plural_u64(count: u64, one: &'static str, many: &'static str) -> &'static str {
    if count == 1 { one } else { many }
}

pub(super) fn with_token(token: Option<FencingToken>) -> String {
    token.map_or_else(String::new, |t| format!(" with token {t}"))
}

/// For grants, the absence of a token is worth saying: this lock gives nothing to fence with.
pub(super) fn grant_token(token: Option<FencingToken>) -> String {
    token.map_or_else(|| " (no token)".to_owned(), |t| format!(" with token {t}"))
}

pub(super) fn message_words(id: MessageId, network: &Network) -> String {
    network.message(id).map_or_else(
        || format!("Message {id}"),
        |m| format!("The \"{}\" message {id}", m.payload.label()),
    )
}

pub(super) fn input_words(input: Input, network: &Network) -> String {
    match input {
        Input::Message(id) => message_words(id, network),
        Input::Timer(_, kind) => match kind {
            TimerKind::Start => "The start timer".to_owned(),
            TimerKind::WorkDone => "The end of its work".to_owned(),
            TimerKind::Retry => "The retry timer".to_owned(),
            TimerKind::WriteNow => "The moment to write".to_owned(),
            TimerKind::RequestTimeout => "A request timeout".to_owned(),
            TimerKind::Renew => "The renewal timer".to_owned(),
            TimerKind::LeaseExpiry => "A lease's expiry".to_owned(),
            TimerKind::Ship => "The replication timer".to_owned(),
            TimerKind::RoundTimeout => "The wait for the nodes' answers".to_owned(),
            TimerKind::LocalDeadline => "Its local deadline".to_owned(),
            TimerKind::Heartbeat => "A heartbeat".to_owned(),
            TimerKind::ElectionCheck => "An election check".to_owned(),
            TimerKind::LockDelayOver => "The end of a lock-delay".to_owned(),
        },
    }
}

pub(super) fn no_effect_words(why: NoEffect) -> &'static str {
    match why {
        NoEffect::AlreadyPaused => "the node is already paused",
        NoEffect::NotPaused => "the node is not paused",
        NoEffect::AlreadyCrashed => "the node has already crashed",
        NoEffect::NotCrashed => "the node is running",
        NoEffect::NoSuchMessage => "no such message has been sent yet",
        NoEffect::MessageNotInFlight => "the message is no longer in flight",
        NoEffect::MessageNotHeld => "the message is not held",
        NoEffect::NoLiveLease => "no lease is live",
        NoEffect::NoReplica => "there is no running replica to promote",
    }
}

/// The noun for what a client asks of the resource.
pub(crate) fn request_noun(request: Request) -> &'static str {
    match request {
        Request::Write => "write",
        Request::Order => "order",
        Request::Charge => "charge",
    }
}
