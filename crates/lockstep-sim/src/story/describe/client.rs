//! The narration of one domain's events.
//! What clients do: ask, wait, read, write, renew, release, and how their jobs end.

use super::narrator::Narrator;
use super::words::{grant_token, next_words, plural, with_token};
use crate::vocabulary::happening::{
    AbandonReason, AfterTimeout, DeadlineCut, Happening, RedlockOutcome, Request, Then, WorkResult,
};
use crate::vocabulary::message::{Refusal, ReleaseMethod, WriteOutcome};

/// A client asks for the lock and hears back.
pub(super) fn asking(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator {
        resource,
        service,
        cast,
        ..
    } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::AskedForLock { client, ttl, nodes } if nodes > 1 => format!(
            "{} asks all {nodes} nodes at once for the lock with a lease of {ttl}.",
            n(client)
        ),
        Happening::AskedForLock { client, ttl, .. } => {
            format!(
                "{} asks {service} for the lock with a lease of {ttl}.",
                n(client)
            )
        }
        Happening::Started { client, next } => {
            format!(
                "{} starts without taking any lock and {}.",
                n(client),
                next_words(next, resource)
            )
        }
        Happening::Granted { client, token, ttl } => format!(
            "{service} grants the lock to {}{}; the lease lasts {ttl} by the service's clock.",
            n(client),
            grant_token(token)
        ),
        Happening::Refused { client, holder } => format!(
            "{service} refuses {}: {}.",
            n(client),
            holder.map_or("the lock is held elsewhere".to_owned(), |h| format!(
                "{} holds an unexpired lease",
                n(h)
            ))
        ),
        _ => return None,
    };
    Some(text)
}

/// A client gets the lock, or waits, retries or gives up.
pub(super) fn waiting(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator { resource, cast, .. } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::GotLock {
            client,
            token,
            next,
        } => format!(
            "{} is told it holds the lock{} and {}.",
            n(client),
            grant_token(token),
            next_words(next, resource)
        ),
        Happening::WillRetry {
            client,
            retries_left,
        } => format!(
            "{} is told the lock is held elsewhere and will try again ({retries_left} {} left).",
            n(client),
            plural(retries_left, "retry", "retries")
        ),
        Happening::GaveUp { client } => format!(
            "{} gives up: it was told the lock is held elsewhere.",
            n(client)
        ),
        Happening::NoLeader {
            client,
            retries_left,
        } => match retries_left {
            Some(left) => format!(
                "{} is told the replica it reached is not the leader, and will try again ({left} {} left).",
                n(client),
                plural(left, "retry", "retries")
            ),
            None => format!(
                "{} is told the replica it reached is not the leader, and gives up.",
                n(client)
            ),
        },
        Happening::SessionExpired {
            client,
            retries_left,
        } => format!(
            "{} is told its session expired while it waited, so it never held the lock; {}.",
            n(client),
            retries_left.map_or("it gives up".to_owned(), |left| format!(
                "it will try again with a new lease ({left} {} left)",
                plural(left, "retry", "retries")
            ))
        ),
        _ => return None,
    };
    Some(text)
}

/// A client reads, and checks its lease before it writes.
pub(super) fn reading(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator { resource, cast, .. } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::ReadServed {
            reader,
            value,
            version,
        } => {
            format!(
                "The {resource} returns value {value} (version {version}) to {}.",
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
        Happening::LeaseChecked {
            client,
            time_left,
            margin,
            write_in,
        } => format!(
            "{} checks its lease: its check says {time_left} ms are left by its own clock, more than its {margin} margin, so it goes ahead. The write goes out {write_in} later.",
            n(client)
        ),
        Happening::WriteSkipped {
            client,
            time_left,
            margin,
        } => match time_left {
            Some(left) => format!(
                "{} checks its lease: its check says the lease is {} by its own clock, so it does not write and sends its release.",
                n(client),
                if left <= 0 {
                    format!("over by {} ms", left.unsigned_abs())
                } else {
                    format!("{left} ms from its end, within its {margin} margin")
                }
            ),
            None => format!(
                "{} no longer believes it holds the lock, so it does not write and sends its release.",
                n(client)
            ),
        },
        _ => return None,
    };
    Some(text)
}

/// A client writes, or its request times out.
pub(super) fn writing(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator {
        resource,
        service,
        cast,
        ..
    } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::WriteSent {
            client,
            request,
            token,
            value,
            checked,
        } => {
            let check = checked.map_or_else(String::new, |left| {
                format!("Its lease check says {left} ms left. ")
            });
            let what = match request {
                Request::Write => format!("writes {value} to the {resource}"),
                Request::Order => format!("orders {value} from the {resource}"),
                Request::Charge => format!("asks the {resource} to charge {value}"),
            };
            let token = token.map_or_else(String::new, |t| format!(" with token {t}"));
            format!("{check}{} {what}{token}.", n(client))
        }
        Happening::TimedOut { client, next } => match next {
            AfterTimeout::Resend { tries_left } => format!(
                "{} hears nothing back in time and sends the same request again ({tries_left} {} left).",
                n(client),
                plural(tries_left, "try", "tries")
            ),
            AfterTimeout::Retry { retries_left } => format!(
                "{} hears nothing back from {service} in time and will try again ({retries_left} {} left).",
                n(client),
                plural(retries_left, "retry", "retries")
            ),
            AfterTimeout::GiveUp => format!(
                "{} hears nothing back from {service} and gives up.",
                n(client)
            ),
            AfterTimeout::Release => format!(
                "{} hears nothing back in time, abandons the job and sends its release.",
                n(client)
            ),
            AfterTimeout::Stop => format!(
                "{} hears nothing back in time and stops waiting.",
                n(client)
            ),
        },
        _ => return None,
    };
    Some(text)
}

/// The answers a client hears to its write, and from each node it asked.
pub(super) fn answers(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator { cast, .. } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::WriteAnswered {
            client,
            outcome,
            then,
            ..
        } => {
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
            format!("{} is told {what}{next}.", n(client))
        }
        Happening::NodeAnswered {
            client,
            node,
            yes,
            so_far,
            of,
        } => format!(
            "{} hears {} from {} ({so_far} of {of} yes so far).",
            n(client),
            if yes { "yes" } else { "no" },
            n(node)
        ),
        _ => return None,
    };
    Some(text)
}

/// A Redlock client decides from its nodes' answers.
pub(super) fn redlock(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator { cast, .. } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::RedlockDecided {
            client,
            yes,
            of,
            elapsed,
            validity,
            outcome,
            retries_left,
        } => {
            let verdict = match outcome {
                RedlockOutcome::Acquired if validity > 0 => format!(
                    "{yes} of {of} nodes said yes in {elapsed} ms, so {} believes it holds the lock for another {validity} ms by its own clock",
                    n(client)
                ),
                RedlockOutcome::Acquired => format!(
                    "{yes} of {of} nodes said yes. It took {elapsed} ms, longer than the lock is valid, but without the elapsed-time check {} believes it holds the lock anyway",
                    n(client)
                ),
                RedlockOutcome::NoQuorum => format!(
                    "only {yes} of {of} nodes said yes, not a majority, so {} unlocks them all",
                    n(client)
                ),
                RedlockOutcome::TooSlow => format!(
                    "{yes} of {of} nodes said yes, but acquiring took {elapsed} ms and left no validity, so {} unlocks them all",
                    n(client)
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
            format!("{}: {verdict}{next}.", n(client))
        }
        _ => return None,
    };
    Some(text)
}

/// A client renews its lease, abandons its job, or releases the lock.
pub(super) fn renewing(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator { service, cast, .. } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::RenewSent { client, token } => {
            format!(
                "{} asks {service} to renew its lease{}.",
                n(client),
                with_token(token)
            )
        }
        Happening::RenewAnswered {
            client,
            renewals_left,
            lease_until,
        } => format!(
            "{} is told its lease was renewed ({renewals_left} {} left): by its own clock, a TTL counted from when it sent the renewal ends at {lease_until}.",
            n(client),
            plural(renewals_left, "renewal", "renewals")
        ),
        Happening::Abandoned { client, reason } => match reason {
            AbandonReason::MaximumHoldTime => format!(
                "{} has used all its renewals, so it abandons the lock (maximum hold time exceeded): it no longer believes it holds it.",
                n(client)
            ),
            AbandonReason::RenewalRefused => {
                format!(
                    "{} is told its renewal was refused, so it abandons the lock: it no longer believes it holds it.",
                    n(client)
                )
            }
        },
        Happening::DeadlinePassed {
            client,
            since,
            deadline,
            cut,
        } => format!(
            "By its own clock, {deadline} have passed since {} sent the last request the lock service answered (at {since}), and no renewal has been acknowledged since: it gives the lock up by its own deadline. It no longer believes it holds the lock{}",
            n(client),
            match cut {
                DeadlineCut::Work => " and stops its work without writing.",
                DeadlineCut::WriteInFlight =>
                    ", but its write has already gone out and cannot be called back.",
            }
        ),
        Happening::Releasing {
            client,
            token,
            method,
        } => match method {
            ReleaseMethod::IfStillMine => {
                format!("{} sends its release{}.", n(client), with_token(token))
            }
            ReleaseMethod::PlainDelete => {
                format!("{} sends a plain DEL to release the lock.", n(client))
            }
        },
        _ => return None,
    };
    Some(text)
}

/// How a client's job ended.
pub(super) fn job_ends(narrator: &Narrator<'_>, happening: &Happening) -> Option<String> {
    let Narrator { resource, cast, .. } = *narrator;
    let n = |node| cast.name(node);
    let text = match *happening {
        Happening::Finished { client, result, .. } => match result {
            WorkResult::Done => format!("{} is done: it was told its work was applied.", n(client)),
            WorkResult::HeldElsewhere => format!(
                "{} stops: it was told the lock is held elsewhere.",
                n(client)
            ),
            WorkResult::Fenced {
                presented,
                required,
            } => format!(
                "{} stops: fenced (it presented token {presented}, the {resource} required {required}).",
                n(client)
            ),
            WorkResult::NoToken => format!("{} stops: its write had no token.", n(client)),
            WorkResult::NotHeldSafely => format!(
                "{} stops without writing: its lease check said the lease was not safe.",
                n(client)
            ),
            WorkResult::Conflict => format!("{} stops: the row kept changing under it.", n(client)),
            WorkResult::SoldOut => format!("{} stops: sold out.", n(client)),
            WorkResult::NoAnswer => format!("{} stops: it never got an answer.", n(client)),
            WorkResult::SequencerInvalid { presented } => format!(
                "{} stops: fenced (the lock service no longer vouched for token {presented}).",
                n(client)
            ),
            WorkResult::DeadlinePassed => format!(
                "{} stops without writing: its own deadline passed.",
                n(client)
            ),
            WorkResult::SessionExpired => {
                format!("{} stops: its session expired while it waited.", n(client))
            }
            WorkResult::ClaimedByAnother => format!(
                "{} stops: the {resource} had been claimed by another lock holder.",
                n(client)
            ),
        },
        _ => return None,
    };
    Some(text)
}
