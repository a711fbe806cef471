//! The narration: one plain-language sentence (sometimes two) per event.
//!
//! Voice: short, present tense, concrete; the reason in one sentence. This module only words what
//! a `Happening` already says; it decides nothing, and the simulation never needs it.

use crate::ids::{MessageId, NodeId};
use crate::network::Network;
use crate::scenario::cast::Cast;
use crate::scenario::cast::ExpiryNotice;
use crate::token::FencingToken;
use crate::vocabulary::happening::{
    AbandonReason, AfterTimeout, DeadlineCut, Direction, Happening, Input, NoEffect,
    RedlockOutcome, Request, StepDown, Then, Withheld, WorkResult,
};
use crate::vocabulary::loss::Loss;
use crate::vocabulary::message::{Refusal, ReleaseMethod, WriteOutcome};
use crate::vocabulary::next_step::NextStep;
use crate::vocabulary::raft::Op;
use crate::vocabulary::timer::TimerKind;

/// The sentence for one event: `actor` is the node that acted (the trace event's actor).
pub fn describe(actor: NodeId, happening: &Happening, cast: &Cast, network: &Network) -> String {
    let n = |node| cast.name(node);
    // A service node speaks for itself; a client speaks to the service as a whole.
    let service = if cast.is_service(actor) || cast.services().count() == 1 {
        n(if cast.is_service(actor) {
            actor
        } else {
            cast.lock_service()
        })
        .to_owned()
    } else {
        "the lock service".to_owned()
    };
    let resource = n(cast.resource());
    match *happening {
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
        Happening::Renewed { client, token, ttl } => format!(
            "{service} renews {}'s lease{} for another {ttl}.",
            n(client),
            with_token(token)
        ),
        Happening::RenewRefused { client, holder, .. } => format!(
            "{service} refuses to renew {}'s lease: {}.",
            n(client),
            match holder {
                None => "it has expired".to_owned(),
                Some(h) if h == client => "that lease is over; it holds a newer one".to_owned(),
                Some(h) => format!("{} holds the lock now", n(h)),
            }
        ),
        Happening::Released { client, token } => {
            format!(
                "{service} clears the lease of {}{}: the lock is free.",
                n(client),
                with_token(token)
            )
        }
        Happening::ReleasedOthersLock { client, owner } => format!(
            "{service} deletes the lock on {}'s say-so, but the lock was {}'s: a plain DEL just freed someone else's lock.",
            n(client),
            n(owner)
        ),
        Happening::Shipped { node, to, holder } => format!(
            "{} ships its changes to {}: the key names {}.",
            n(node),
            n(to),
            holder.map_or("nobody", n)
        ),
        Happening::Replicated { node, from, holder } => match holder {
            Some(holder) => format!(
                "{} applies {}'s change: the key now names {}.",
                n(node),
                n(from),
                n(holder)
            ),
            None => format!(
                "{} applies {}'s change: the key is now empty.",
                n(node),
                n(from)
            ),
        },
        Happening::FailedOver { from, to, lost } => match lost {
            Some(holder) => format!(
                "The monitor promotes {} to primary in place of {}. It never received {}'s lock: the lock is gone, and {} is not told.",
                n(to),
                n(from),
                n(holder),
                n(holder)
            ),
            None => format!(
                "The monitor promotes {} to primary in place of {}.",
                n(to),
                n(from)
            ),
        },
        Happening::Appended { node, index, op } => format!(
            "{} (the leader) writes entry {index} to its log, \"{}\", and sends it to the other replicas. It counts only once a majority has it.",
            n(node),
            op_words(op, cast)
        ),
        Happening::Stored {
            node,
            index,
            leader,
        } => {
            format!(
                "{} stores entry {index} from the leader {}.",
                n(node),
                n(leader)
            )
        }
        Happening::Committed { node, index } => {
            format!(
                "{} learns that the log is committed up to entry {index}.",
                n(node)
            )
        }
        Happening::Queued {
            node,
            client,
            ahead,
            until,
        } => match until {
            Some(until) => format!(
                "{} has {}'s key. {} waits: the lock is in its lock-delay until {} ms by {}'s clock, because its last holder failed.",
                n(node),
                n(client),
                n(client),
                until.0,
                n(node)
            ),
            None => format!(
                "{} has {}'s key. {} waits in the queue ({ahead} ahead of it besides the holder); its turn comes when every lower key is gone.",
                n(node),
                n(client),
                n(client)
            ),
        },
        Happening::Watching {
            node,
            client,
            watchers,
        } => format!(
            "{} refuses {}, which now watches the lock for its release ({watchers} watching).",
            n(node),
            n(client)
        ),
        Happening::HerdWoken { node, woken } => format!(
            "The lock is released, and {} wakes all {woken} watchers at once. They will all ask again; only one can win (the herd effect).",
            n(node)
        ),
        Happening::WaiterExpired { node, client } => format!(
            "{}'s turn has come, but {} finds its key gone: its session expired while it waited. {} tells it the session expired instead of granting the lock.",
            n(client),
            n(node),
            n(node)
        ),
        Happening::GrantedWithoutLease {
            node,
            client,
            token,
        } => format!(
            "{} tells {} it holds the lock with token {token}, the revision of the key {} put when it started waiting, without checking that the key still exists (the etcd 3.4.3 bug). {}'s session expired while it waited and its key is gone, so the lock is in fact free.",
            n(node),
            n(client),
            n(client),
            n(client)
        ),
        Happening::Woken { client } => {
            format!(
                "{} hears the lock was released and asks for it again.",
                n(client)
            )
        }
        Happening::NotLeader { node, client } => {
            format!(
                "{} is not the leader and sends {} away.",
                n(node),
                n(client)
            )
        }
        Happening::ElectionStarted { node, term } => format!(
            "{} has not heard from a leader for an election timeout: it stands for election in term {term}. No lock can be granted until there is a leader.",
            n(node)
        ),
        Happening::Voted {
            node,
            candidate,
            term,
            granted,
        } => format!(
            "{} {} {} in term {term}.",
            n(node),
            if granted {
                "votes for"
            } else {
                "refuses its vote to"
            },
            n(candidate)
        ),
        Happening::BecameLeader { node, term } => format!(
            "{} wins a majority of votes and leads term {term}. Its log has every committed grant, but it answers for the lock only once an entry of its own term has committed.",
            n(node)
        ),
        Happening::VoteWithheld {
            node,
            candidate,
            term,
            why,
        } => format!(
            "{} {}, so it ignores {}'s call for an election in term {term}: {}",
            n(node),
            match why {
                Withheld::Leading =>
                    "leads, and a majority answered its heartbeats within an election timeout",
                Withheld::LeaderHeard => "heard from its leader less than an election timeout ago",
            },
            n(candidate),
            match why {
                Withheld::Leading =>
                    "a leader that may still be answering for the lock does not step aside.",
                Withheld::LeaderHeard =>
                    "a replica that can still hear its leader does not help depose it.",
            }
        ),
        Happening::Serving { node, term } => format!(
            "{}'s first entry of term {term} is committed, and with it everything before it: now it knows which keys and sessions are live, and it starts answering for the lock. Every session starts again with its full TTL.",
            n(node)
        ),
        Happening::NotServingYet { node, client } => format!(
            "{} leads, but its first entry has not committed yet, so it cannot tell which sessions are live: it leaves {}'s request unanswered.",
            n(node),
            n(client)
        ),
        Happening::SteppedDown {
            node,
            term,
            why: StepDown::LostQuorum,
        } => format!(
            "{} stops leading (term {term}): it cannot reach a majority, so it must not answer for the lock.",
            n(node)
        ),
        Happening::SteppedDown {
            node,
            term,
            why: StepDown::LaterTerm,
        } => format!(
            "{} stops leading: another replica speaks of term {term}, later than its own, so it becomes a follower.",
            n(node)
        ),
        Happening::Silent => String::new(),
        Happening::ReleaseRefused {
            client,
            token,
            holder,
        } => format!(
            "{service} ignores {}'s release{}: {}.",
            n(client),
            with_token(token),
            match holder {
                Some(h) if h != client => format!("the lock is {}'s now", n(h)),
                _ => "that lease is no longer the current one".to_owned(),
            }
        ),
        Happening::LeaseExpired { holder, token } => format!(
            "{}'s lease{} expires at {service}. {}",
            n(holder),
            with_token(token),
            match cast.expiry_notice() {
                ExpiryNotice::Silent => format!("Nobody tells {}.", n(holder)),
                ExpiryNotice::NextKeepalive => format!(
                    "Nobody tells {} now: the service says so in answer to its next keepalive, if one gets through.",
                    n(holder)
                ),
            }
        ),
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
        Happening::WriteAccepted {
            writer,
            token,
            value,
            version,
            overwrote_unseen,
        } => {
            let mut text = format!(
                "The {resource} accepts {}'s write of {value}{} (now version {version}).",
                n(writer),
                with_token(token)
            );
            if let Some(unseen) = overwrote_unseen {
                let lost = unseen.current_version - unseen.read_version;
                text.push_str(&format!(
                    " {} read version {}, but the value changed {lost} {} since: {} lost.",
                    n(writer),
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
        Happening::WriteRejected { writer, refusal } => match refusal {
            // An inventory is sent orders: a refused order is named as such.
            Refusal::StaleToken {
                presented,
                required,
            } => format!(
                "The {resource} rejects {}'s {} with token {presented}: it has already accepted token {required} ({presented} < {required}).",
                n(writer),
                request_noun(cast.request())
            ),
            Refusal::NoToken => format!(
                "The {resource} rejects {}'s {}: fencing is on and it carries no token.",
                n(writer),
                request_noun(cast.request())
            ),
            Refusal::VersionChanged { expected, actual } => format!(
                "The {resource} rejects {}'s write: it expected version {expected}, the row is at version {actual}.",
                n(writer)
            ),
            Refusal::SoldOut { wanted, left } => format!(
                "The {resource} refuses {}'s order of {wanted}: only {left} left.",
                n(writer)
            ),
            Refusal::SequencerInvalid { presented } => format!(
                "The {resource} rejects {}'s {}: the lock service says token {presented} is no longer its live lease.",
                n(writer),
                request_noun(cast.request())
            ),
            Refusal::ClaimedByAnother => format!(
                "The {resource} rejects {}'s write: another lock holder has claimed it with a different lock value since.",
                n(writer)
            ),
        },
        Happening::SequencerAsked { writer, token } => format!(
            "The {resource} holds {}'s write and asks the lock service whether token {token} is still its live lease.",
            n(writer)
        ),
        Happening::SequencerAnswered {
            writer,
            token,
            valid,
        } => format!(
            "{service} answers the {resource}: token {token} {} {}'s live lease.",
            if valid { "is" } else { "is no longer" },
            n(writer)
        ),
        Happening::StockTaken {
            buyer,
            token,
            amount,
            left,
        } => format!(
            "The {resource} takes {amount} from stock for {}{}; {left} left.",
            n(buyer),
            with_token(token)
        ),
        Happening::ChargeApplied {
            payer,
            key,
            amount,
            times,
        } => {
            if times > 1 {
                format!(
                    "The {resource} charges {amount} again for request {key} from {}: charged {times} times for one purchase.",
                    n(payer)
                )
            } else {
                format!(
                    "The {resource} charges {amount} for request {key} from {}.",
                    n(payer)
                )
            }
        }
        Happening::ChargeReplayed { payer, key } => format!(
            "The {resource} has seen request {key} before: it returns the saved answer to {} and charges nothing.",
            n(payer)
        ),
        Happening::Ignored { node, message } => match message {
            Some(message) => format!(
                "{} ignores {}: it no longer needs it.",
                n(node),
                message_words(message, network).replacen("The", "the", 1)
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
            "{} resumes after {paused_for} with {waiting} {} waiting. Nothing marks the pause for it: unless it reads its clock, it carries on as if no time had passed.",
            n(node),
            plural(waiting, "input", "inputs")
        ),
        Happening::Crashed {
            node,
            forgot_token: Some(token),
            ..
        } if node == cast.resource() => format!(
            "The {resource} crashes: it answers nothing until it restarts. Its data is stored and survives, but it kept the highest token it had seen, {token}, only in memory: that is gone, so after the restart the highest-token rule has nothing to hold an old token against."
        ),
        Happening::Crashed {
            node,
            lost: Some(holder),
            ..
        } => format!(
            "{} crashes. It had not persisted {}'s key, so when it comes back the key is gone.",
            n(node),
            n(holder)
        ),
        Happening::Crashed { node, .. } if cast.is_client(node) => {
            format!("{} crashes and loses everything it had in memory.", n(node))
        }
        Happening::Crashed { node, .. } if node == cast.resource() => format!(
            "The {resource} crashes: it answers nothing until it restarts. What it stored survives."
        ),
        Happening::Crashed { node, .. } => format!(
            "{} crashes: it answers nothing until it restarts. What it stored survives.",
            n(node)
        ),
        Happening::Restarted { node } if node == cast.resource() => {
            format!("The {resource} restarts.")
        }
        Happening::Restarted { node } => format!("{} restarts.", n(node)),
        Happening::RestartDelayed { node, until } => format!(
            "{} is told to restart but stays down until {until}: a delayed restart keeps it out of any lock still live.",
            n(node)
        ),
        Happening::ClockJumped { node, by_ms } => format!(
            "{}'s clock jumps {} by {} ms.",
            n(node),
            if by_ms >= 0 { "forwards" } else { "backwards" },
            by_ms.unsigned_abs()
        ),
        Happening::DriftChanged { node, drift_ppm } => drift_words(n(node), drift_ppm),
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
            "{}'s lease is forced to expire at {service}. {} is not told.",
            n(holder),
            n(holder)
        ),
        Happening::NoEffect { why } => {
            format!("The intervention has no effect: {}.", no_effect_words(why))
        }
    }
}

/// A clock's new rate, with what it means: "runs fast by 1000000 parts per million: 2 times as
/// fast as true time" says plainly that its timers end spans early in true time.
fn drift_words(node: &str, drift_ppm: i32) -> String {
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

fn op_words(op: Op, cast: &Cast) -> String {
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

fn next_words(next: NextStep, resource: &str) -> String {
    match next {
        NextStep::Read => format!("reads the {resource}"),
        NextStep::Work(work) => format!("starts {work} of work"),
    }
}

fn plural(count: u32, one: &'static str, many: &'static str) -> &'static str {
    if count == 1 { one } else { many }
}

fn plural_u64(count: u64, one: &'static str, many: &'static str) -> &'static str {
    if count == 1 { one } else { many }
}

fn with_token(token: Option<FencingToken>) -> String {
    token.map_or_else(String::new, |t| format!(" with token {t}"))
}

/// For grants, the absence of a token is worth saying: this lock gives nothing to fence with.
fn grant_token(token: Option<FencingToken>) -> String {
    token.map_or_else(|| " (no token)".to_owned(), |t| format!(" with token {t}"))
}

fn message_words(id: MessageId, network: &Network) -> String {
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

#[cfg(test)]
mod tests {
    use crate::resource::Fencing;
    use crate::{Sim, catalogue};

    #[test]
    fn a_new_clock_rate_is_said_as_fast_or_slow_and_how_many_times_true_time() {
        use super::drift_words;
        assert_eq!(
            drift_words("etcd-1", 1_000_000),
            "etcd-1's clock now runs fast by 1000000 parts per million: 2 times as fast as true time."
        );
        assert_eq!(
            drift_words("etcd-2", 100),
            "etcd-2's clock now runs fast by 100 parts per million: 1.0001 times as fast as true time."
        );
        assert_eq!(
            drift_words("redis-c", -500_000),
            "redis-c's clock now runs slow by 500000 parts per million: 0.5 times as fast as true time."
        );
        assert_eq!(
            drift_words("resource", 0),
            "resource's clock now runs at the true rate."
        );
    }

    /// An inventory takes orders: its refusals name the order, not a write.
    #[test]
    fn a_refused_order_is_narrated_as_an_order() {
        let mut scenario = catalogue::find("a2-conditional-decrement")
            .and_then(|b| b.load().ok())
            .expect("built in");
        scenario.resource = scenario.resource.with_fencing(Fencing::On);
        let mut sim = Sim::new(&scenario).expect("runs");
        sim.run_to_end();
        let text = sim.render_text();
        let refusals: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("The resource re"))
            .collect();
        assert!(!refusals.is_empty(), "{text}");
        for line in refusals {
            assert!(
                line.contains("'s order") && !line.contains("write"),
                "{line}"
            );
        }
    }
}
