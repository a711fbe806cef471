//! The narration of one domain's events: a function per kind of happening, given its fields by
//! `describe`'s exhaustive match.
//! What clients do: ask, wait, read, write, renew, release, and how their jobs end.

use super::narrator::Narrator;
use super::words::{grant_token, next_words, plural, with_token};
use crate::vocabulary::happening::{
    AbandonReason, AfterTimeout, DeadlineCut, RedlockOutcome, Request, Then, WorkResult,
};
use crate::vocabulary::message::{RedlockRound, Refusal, ReleaseMethod, WriteOutcome};
use crate::vocabulary::next_step::NextStep;
use crate::world::ids::NodeId;
use crate::world::time::{LocalTime, Millis};
use crate::world::token::FencingToken;

// A client asks for the lock and hears back.

/// One node is asked as "the lock service"; Redlock's several at once.
pub(super) fn asked_for_lock(
    narrator: &Narrator<'_>,
    client: NodeId,
    ttl: Millis,
    nodes: u8,
) -> String {
    let Narrator { service, .. } = *narrator;
    if nodes > 1 {
        format!(
            "{} asks all {nodes} nodes at once for the lock with a lease of {ttl}.",
            narrator.name(client)
        )
    } else {
        format!(
            "{} asks {service} for the lock with a lease of {ttl}.",
            narrator.name(client)
        )
    }
}

pub(super) fn started(narrator: &Narrator<'_>, client: NodeId, next: NextStep) -> String {
    let Narrator { resource, .. } = *narrator;
    format!(
        "{} starts without taking any lock and {}.",
        narrator.name(client),
        next_words(next, resource)
    )
}

pub(super) fn granted(
    narrator: &Narrator<'_>,
    client: NodeId,
    token: Option<FencingToken>,
    ttl: Millis,
) -> String {
    let Narrator { service, .. } = *narrator;
    format!(
        "{}{service} grants the lock to {}{}; the lease lasts {ttl} by the service's clock.",
        narrator.releases_confirmed(),
        narrator.name(client),
        grant_token(token)
    )
}

pub(super) fn refused(narrator: &Narrator<'_>, client: NodeId, holder: Option<NodeId>) -> String {
    let Narrator { service, .. } = *narrator;
    format!(
        "{service} refuses {}: {}.",
        narrator.name(client),
        holder.map_or("the lock is held elsewhere".to_owned(), |h| format!(
            "{} holds an unexpired lease",
            narrator.name(h)
        ))
    )
}

// A client gets the lock, or waits, retries or gives up.

pub(super) fn got_lock(
    narrator: &Narrator<'_>,
    client: NodeId,
    token: Option<FencingToken>,
    next: NextStep,
) -> String {
    let Narrator { resource, .. } = *narrator;
    format!(
        "{} is told it holds the lock{} and {}.",
        narrator.name(client),
        grant_token(token),
        next_words(next, resource)
    )
}

pub(super) fn will_retry(narrator: &Narrator<'_>, client: NodeId, retries_left: u32) -> String {
    format!(
        "{} is told the lock is held elsewhere and will try again ({retries_left} {} left).",
        narrator.name(client),
        plural(retries_left, "retry", "retries")
    )
}

pub(super) fn gave_up(narrator: &Narrator<'_>, client: NodeId) -> String {
    format!(
        "{} gives up: it was told the lock is held elsewhere.",
        narrator.name(client)
    )
}

pub(super) fn no_leader(
    narrator: &Narrator<'_>,
    client: NodeId,
    retries_left: Option<u32>,
) -> String {
    match retries_left {
        Some(left) => format!(
            "{} is told the replica it reached is not the leader, and will try again ({left} {} left).",
            narrator.name(client),
            plural(left, "retry", "retries")
        ),
        None => format!(
            "{} is told the replica it reached is not the leader, and gives up.",
            narrator.name(client)
        ),
    }
}

pub(super) fn session_expired(
    narrator: &Narrator<'_>,
    client: NodeId,
    retries_left: Option<u32>,
) -> String {
    format!(
        "{} is told its session expired while it waited, so it never held the lock; {}.",
        narrator.name(client),
        retries_left.map_or("it gives up".to_owned(), |left| format!(
            "it will try again with a new lease ({left} {} left)",
            plural(left, "retry", "retries")
        ))
    )
}

// A client reads, and checks its lease before it writes.

pub(super) fn read_served(
    narrator: &Narrator<'_>,
    reader: NodeId,
    value: i64,
    version: u64,
) -> String {
    let Narrator { resource, .. } = *narrator;
    format!(
        "The {resource} returns value {value} (version {version}) to {}.",
        narrator.name(reader)
    )
}

pub(super) fn read_returned(
    narrator: &Narrator<'_>,
    client: NodeId,
    value: i64,
    version: u64,
    work: Millis,
) -> String {
    format!(
        "{} reads value {value} (version {version}) and starts {work} of work on it.",
        narrator.name(client)
    )
}

pub(super) fn lease_checked(
    narrator: &Narrator<'_>,
    client: NodeId,
    time_left: i64,
    margin: Millis,
    write_in: Millis,
) -> String {
    format!(
        "{} checks its lease: its check says {time_left} ms are left by its own clock, more than its {margin} margin, so it goes ahead. The write goes out {write_in} later.",
        narrator.name(client)
    )
}

pub(super) fn write_skipped(
    narrator: &Narrator<'_>,
    client: NodeId,
    time_left: Option<i64>,
    margin: Millis,
) -> String {
    match time_left {
        Some(left) => format!(
            "{} checks its lease: its check says the lease is {} by its own clock, so it does not write and sends its release.",
            narrator.name(client),
            if left <= 0 {
                format!("over by {} ms", left.unsigned_abs())
            } else {
                format!("{left} ms from its end, within its {margin} margin")
            }
        ),
        None => format!(
            "{} no longer believes it holds the lock, so it does not write and sends its release.",
            narrator.name(client)
        ),
    }
}

// A client writes, or its request times out.

pub(super) fn write_sent(
    narrator: &Narrator<'_>,
    client: NodeId,
    request: Request,
    token: Option<FencingToken>,
    value: i64,
    checked: Option<i64>,
) -> String {
    let Narrator { resource, .. } = *narrator;
    let check = checked.map_or_else(String::new, |left| {
        format!("Its lease check says {left} ms left. ")
    });
    let what = match request {
        Request::Write => format!("writes {value} to the {resource}"),
        Request::Order => format!("orders {value} from the {resource}"),
        Request::Charge => format!("asks the {resource} to charge {value}"),
    };
    let token = token.map_or_else(String::new, |t| format!(" with token {t}"));
    format!("{check}{} {what}{token}.", narrator.name(client))
}

pub(super) fn timed_out(narrator: &Narrator<'_>, client: NodeId, next: AfterTimeout) -> String {
    let Narrator { service, .. } = *narrator;
    match next {
        AfterTimeout::Resend { tries_left } => format!(
            "{} hears nothing back in time and sends the same request again ({tries_left} {} left).",
            narrator.name(client),
            plural(tries_left, "try", "tries")
        ),
        AfterTimeout::Retry { retries_left } => format!(
            "{} hears nothing back from {service} in time and will try again ({retries_left} {} left).",
            narrator.name(client),
            plural(retries_left, "retry", "retries")
        ),
        AfterTimeout::GiveUp => format!(
            "{} hears nothing back from {service} and gives up.",
            narrator.name(client)
        ),
        AfterTimeout::Release => format!(
            "{} hears nothing back in time, abandons the job and sends its release.",
            narrator.name(client)
        ),
        AfterTimeout::Stop => format!(
            "{} hears nothing back in time and stops waiting.",
            narrator.name(client)
        ),
    }
}

// The answers a client hears to its write, and from each node it asked.

pub(super) fn write_answered(
    narrator: &Narrator<'_>,
    client: NodeId,
    outcome: WriteOutcome,
    then: Then,
) -> String {
    let what = match outcome {
        WriteOutcome::Accepted { .. } => "its request was applied",
        WriteOutcome::Replayed { .. } => {
            "its request had already been applied (the saved answer came back)"
        }
        WriteOutcome::Rejected(
            Refusal::StaleToken { .. }
            | Refusal::NoToken
            | Refusal::ClaimedByAnother
            | Refusal::SequencerInvalid { .. },
        ) => "its write was fenced off",
        WriteOutcome::Rejected(Refusal::VersionChanged { .. }) => {
            "the row changed since it read it"
        }
        WriteOutcome::Rejected(Refusal::SoldOut { .. }) => "the item is sold out",
    };
    let next = match then {
        Then::Releases => " and sends its release in its finally block",
        Then::Stops => "",
        Then::ReadsAgain => " and reads again to retry",
    };
    format!("{} is told {what}{next}.", narrator.name(client))
}

pub(super) fn node_answered(
    narrator: &Narrator<'_>,
    client: NodeId,
    node: NodeId,
    yes: bool,
    so_far: u8,
    of: u8,
) -> String {
    let (client, node) = (narrator.name(client), narrator.name(node));
    // Only an acquisition is a vote; the answers to an unlock or an extension are counted, but
    // no majority is being formed, and reading them as votes would suggest a second holder.
    // The round is the answer's own: the message this event handled.
    let round = narrator.handled().and_then(|m| m.payload.answers_round());
    match (round, yes) {
        (Some(RedlockRound::Acquire) | None, yes) => format!(
            "{client} hears {} from {node} ({so_far} of {of} yes so far).",
            if yes { "yes" } else { "no" }
        ),
        (Some(RedlockRound::Release), true) => {
            format!("{node} confirms {client}'s unlock ({so_far} of {of} nodes confirmed so far).")
        }
        (Some(RedlockRound::Release), false) => format!(
            "{node} answers {client}'s unlock: it held no lease of {client}'s to clear \
             ({so_far} of {of} nodes confirmed so far)."
        ),
        (Some(RedlockRound::Renew), true) => {
            format!("{node} extends {client}'s lease ({so_far} of {of} nodes extended so far).")
        }
        (Some(RedlockRound::Renew), false) => format!(
            "{node} refuses to extend {client}'s lease ({so_far} of {of} nodes extended so far)."
        ),
    }
}

// A Redlock client decides from its nodes' answers.

#[expect(
    clippy::too_many_arguments,
    reason = "a Redlock decision's seven facts, each said: the exhaustive dispatch hands them over destructured"
)]
pub(super) fn redlock_decided(
    narrator: &Narrator<'_>,
    client: NodeId,
    yes: u8,
    of: u8,
    elapsed: i64,
    validity: i64,
    outcome: RedlockOutcome,
    retries_left: Option<u32>,
) -> String {
    let verdict = match outcome {
        RedlockOutcome::Acquired if validity > 0 => format!(
            "{yes} of {of} nodes said yes in {elapsed} ms, so {} believes it holds the lock for another {validity} ms by its own clock",
            narrator.name(client)
        ),
        RedlockOutcome::Acquired => format!(
            "{yes} of {of} nodes said yes. It took {elapsed} ms, longer than the lock is valid, but without the elapsed-time check {} believes it holds the lock anyway",
            narrator.name(client)
        ),
        RedlockOutcome::NoQuorum => format!(
            "only {yes} of {of} nodes said yes, not a majority, so {} unlocks them all",
            narrator.name(client)
        ),
        RedlockOutcome::TooSlow => format!(
            "{yes} of {of} nodes said yes, but acquiring took {elapsed} ms and left no validity, so {} unlocks them all",
            narrator.name(client)
        ),
    };
    let next = match (outcome, retries_left) {
        (RedlockOutcome::Acquired, _) => String::new(),
        (_, Some(left)) => format!(
            " and will try again ({left} {} left)",
            plural(left, "retry", "retries")
        ),
        (_, None) => " and gives up".to_owned(),
    };
    format!("{}: {verdict}{next}.", narrator.name(client))
}

// A client renews its lease, abandons its job, or releases the lock.

pub(super) fn renew_sent(
    narrator: &Narrator<'_>,
    client: NodeId,
    token: Option<FencingToken>,
) -> String {
    let Narrator { service, .. } = *narrator;
    format!(
        "{} asks {service} to renew its lease{}.",
        narrator.name(client),
        with_token(token)
    )
}

pub(super) fn renew_answered(
    narrator: &Narrator<'_>,
    client: NodeId,
    renewals_left: u32,
    lease_until: LocalTime,
) -> String {
    format!(
        "{} is told its lease was renewed ({renewals_left} {} left): by its own clock, a TTL counted from when it sent the renewal ends at {lease_until}.",
        narrator.name(client),
        plural(renewals_left, "renewal", "renewals")
    )
}

pub(super) fn abandoned(narrator: &Narrator<'_>, client: NodeId, reason: AbandonReason) -> String {
    match reason {
        AbandonReason::MaximumHoldTime => format!(
            "{} has used all its renewals, so it abandons the lock (maximum hold time exceeded): it no longer believes it holds it.",
            narrator.name(client)
        ),
        AbandonReason::RenewalRefused => {
            format!(
                "{} is told its renewal was refused, so it abandons the lock: it no longer believes it holds it.",
                narrator.name(client)
            )
        }
    }
}

pub(super) fn deadline_passed(
    narrator: &Narrator<'_>,
    client: NodeId,
    since: LocalTime,
    deadline: Millis,
    cut: DeadlineCut,
) -> String {
    format!(
        "By its own clock, {deadline} have passed since {} sent the last request the lock service answered (at {since}), and no renewal has been acknowledged since: it gives the lock up by its own deadline. It no longer believes it holds the lock{}",
        narrator.name(client),
        match cut {
            DeadlineCut::Work => " and stops its work without writing.",
            DeadlineCut::WriteInFlight =>
                ", but its write has already gone out and cannot be called back.",
        }
    )
}

pub(super) fn releasing(
    narrator: &Narrator<'_>,
    client: NodeId,
    token: Option<FencingToken>,
    method: ReleaseMethod,
) -> String {
    match method {
        ReleaseMethod::IfStillMine => {
            format!(
                "{} sends its release{}.",
                narrator.name(client),
                with_token(token)
            )
        }
        ReleaseMethod::PlainDelete => {
            format!(
                "{} sends a plain DEL to release the lock.",
                narrator.name(client)
            )
        }
    }
}

// How a client's job ended.

pub(super) fn finished(narrator: &Narrator<'_>, client: NodeId, result: WorkResult) -> String {
    let Narrator { resource, .. } = *narrator;
    match result {
        WorkResult::Done => format!(
            "{} is done: it was told its work was applied.",
            narrator.name(client)
        ),
        WorkResult::HeldElsewhere => format!(
            "{} stops: it was told the lock is held elsewhere.",
            narrator.name(client)
        ),
        WorkResult::Fenced {
            presented,
            required,
        } => format!(
            "{} stops: fenced (it presented token {presented}, the {resource} required {required}).",
            narrator.name(client)
        ),
        WorkResult::NoToken => format!("{} stops: its write had no token.", narrator.name(client)),
        WorkResult::NotHeldSafely => format!(
            "{} stops without writing: its lease check said the lease was not safe.",
            narrator.name(client)
        ),
        WorkResult::Conflict => format!(
            "{} stops: the row kept changing under it.",
            narrator.name(client)
        ),
        WorkResult::SoldOut => format!("{} stops: sold out.", narrator.name(client)),
        WorkResult::NoAnswer => format!("{} stops: it never got an answer.", narrator.name(client)),
        WorkResult::SequencerInvalid { presented } => format!(
            "{} stops: fenced (the lock service no longer vouched for token {presented}).",
            narrator.name(client)
        ),
        WorkResult::DeadlinePassed => format!(
            "{} stops without writing: its own deadline passed.",
            narrator.name(client)
        ),
        WorkResult::SessionExpired => {
            format!(
                "{} stops: its session expired while it waited.",
                narrator.name(client)
            )
        }
        WorkResult::ClaimedByAnother => format!(
            "{} stops: the {resource} had been claimed by another lock holder.",
            narrator.name(client)
        ),
    }
}
