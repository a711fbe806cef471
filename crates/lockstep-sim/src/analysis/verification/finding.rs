//! What a verification test found, as data: the app shows it, the native tests assert it. Each
//! finding decides its own pass or fail, so a reason can never contradict its verdict.

use crate::vocabulary::message::Refusal;
use crate::world::token::FencingToken;
use std::fmt;

use super::evidence::{Divergence, LostIncrement, TwoWriters};

/// Whether a test passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail,
}

/// Why a test passed or failed. In the two-client tests, `client-a` is the client paused past
/// its lease and `client-b` the one that takes the lock after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The test's scenario could not be built for this lock service.
    CannotRun(String),
    // The first test.
    /// client-b's write was accepted and client-a's stale one rejected.
    StaleWriteRejected {
        stale: Option<FencingToken>,
        newer: Option<FencingToken>,
        refusal: Refusal,
    },
    /// client-a's stale write was accepted, as was client-b's.
    StaleWriteAccepted {
        stale: Option<FencingToken>,
        newer: Option<FencingToken>,
    },
    /// client-b was not given a larger token than client-a.
    NewerTokenNotLarger {
        stale: FencingToken,
        newer: FencingToken,
    },
    /// The resource refused client-b's write too.
    NewHolderRefused {
        refusal: Refusal,
    },
    NewHolderNeverWrote,
    StaleClientNeverWrote,
    // The second test.
    /// After client-a's late release, the lock service still says client-b holds the lock.
    NewHolderKeepsLock,
    /// After client-a's late release, the lock service says `holder` (or nobody) holds it.
    StaleReleaseFreedLock {
        holder: Option<String>,
    },
    ReleaseNeverHandled,
    // The third test, judged twice: by the article's check, then by ours on the data.
    /// The article's check on a chaos run: how many writes the resource accepted, and the first
    /// moment at which two clients each had an accepted write under way, if there was one.
    AcceptedWriters {
        accepted: u32,
        two_writers: Option<TwoWriters>,
    },
    /// The data after a chaos run: how many writes the resource accepted, how many increments
    /// clients were told were applied, the register's first and last values, what the accepted
    /// increments applied one after another give, the first write that broke that order, and
    /// the increments clients were told were applied that the final value does not hold.
    ChaosData {
        accepted: u32,
        told: u32,
        initial: i64,
        serial: i64,
        final_value: i64,
        divergence: Option<Divergence>,
        told_but_lost: u32,
        first_told_but_lost: Option<LostIncrement>,
    },
}

impl Finding {
    /// A stable machine name for the finding (test hooks, logs). The article's check on the
    /// chaos run has two, `one_accepted_writer` and `two_accepted_writers`; our data check
    /// three, `data_intact`, `nothing_accepted` and `lost_update`.
    pub fn kind(&self) -> &'static str {
        match self {
            Finding::CannotRun(_) => "cannot_run",
            Finding::StaleWriteRejected { .. } => "stale_write_rejected",
            Finding::StaleWriteAccepted { .. } => "stale_write_accepted",
            Finding::NewerTokenNotLarger { .. } => "newer_token_not_larger",
            Finding::NewHolderRefused { .. } => "new_holder_refused",
            Finding::NewHolderNeverWrote => "new_holder_never_wrote",
            Finding::StaleClientNeverWrote => "stale_client_never_wrote",
            Finding::NewHolderKeepsLock => "new_holder_keeps_lock",
            Finding::StaleReleaseFreedLock { .. } => "stale_release_freed_lock",
            Finding::ReleaseNeverHandled => "release_never_handled",
            Finding::AcceptedWriters {
                two_writers: None, ..
            } => "one_accepted_writer",
            Finding::AcceptedWriters { .. } => "two_accepted_writers",
            Finding::ChaosData { accepted: 0, .. } => "nothing_accepted",
            Finding::ChaosData { .. } if self.outcome() == Outcome::Pass => "data_intact",
            Finding::ChaosData { .. } => "lost_update",
        }
    }

    pub fn outcome(&self) -> Outcome {
        let passed = match self {
            Finding::StaleWriteRejected { .. } | Finding::NewHolderKeepsLock => true,
            // As the article asserts it: `<= 1` holds when no write was accepted at all.
            Finding::AcceptedWriters { two_writers, .. } => two_writers.is_none(),
            Finding::ChaosData {
                accepted,
                serial,
                final_value,
                divergence,
                told_but_lost,
                ..
            } => {
                *accepted > 0
                    && divergence.is_none()
                    && final_value == serial
                    && *told_but_lost == 0
            }
            Finding::CannotRun(_)
            | Finding::StaleWriteAccepted { .. }
            | Finding::NewerTokenNotLarger { .. }
            | Finding::NewHolderRefused { .. }
            | Finding::NewHolderNeverWrote
            | Finding::StaleClientNeverWrote
            | Finding::StaleReleaseFreedLock { .. }
            | Finding::ReleaseNeverHandled => false,
        };
        if passed { Outcome::Pass } else { Outcome::Fail }
    }
}

struct Token(Option<FencingToken>);

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(token) => write!(f, "token {token}"),
            None => f.write_str("no token"),
        }
    }
}

struct Why(Refusal);

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Refusal::StaleToken {
                presented,
                required,
            } => write!(f, "token {presented} is lower than {required}"),
            Refusal::NoToken => f.write_str("it carried no fencing token"),
            Refusal::VersionChanged { .. } => f.write_str("the register had changed since"),
            Refusal::SoldOut { .. } => f.write_str("nothing was left"),
            Refusal::ClaimedByAnother => f.write_str("another holder had claimed the resource"),
            Refusal::SequencerInvalid { presented } => {
                write!(
                    f,
                    "the lock service said token {presented} was no longer live"
                )
            }
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finding::CannotRun(error) => {
                write!(
                    f,
                    "the test's scenario could not run on this lock service: {error}"
                )
            }
            Finding::StaleWriteRejected {
                stale,
                newer,
                refusal,
            } => write!(
                f,
                "client-b's write ({}) was accepted, and client-a's stale write ({}) was \
                 rejected: {}",
                Token(*newer),
                Token(*stale),
                Why(*refusal)
            ),
            Finding::StaleWriteAccepted { stale, newer } => write!(
                f,
                "client-a's stale write ({}) was accepted, and so was client-b's ({})",
                Token(*stale),
                Token(*newer)
            ),
            Finding::NewerTokenNotLarger { stale, newer } => write!(
                f,
                "client-b was given token {newer}, which is not larger than client-a's {stale}"
            ),
            Finding::NewHolderRefused { refusal } => new_holder_refused(f, *refusal),
            Finding::NewHolderNeverWrote => f.write_str("client-b never wrote"),
            Finding::StaleClientNeverWrote => f.write_str("client-a never wrote"),
            Finding::NewHolderKeepsLock => f.write_str(
                "after client-a's late release, the lock service still says client-b holds \
                 the lock",
            ),
            Finding::StaleReleaseFreedLock { holder } => write!(
                f,
                "after client-a's late release, the lock service says {} holds the lock, not \
                 client-b",
                holder.as_deref().unwrap_or("nobody")
            ),
            Finding::ReleaseNeverHandled => {
                f.write_str("client-a's release never reached the lock service")
            }
            Finding::AcceptedWriters {
                accepted,
                two_writers,
            } => accepted_writers(f, *accepted, two_writers.as_ref()),
            Finding::ChaosData { accepted: 0, .. } => {
                f.write_str("no write was accepted at all, so the run checked nothing")
            }
            Finding::ChaosData {
                accepted,
                told,
                serial,
                final_value,
                divergence,
                told_but_lost,
                first_told_but_lost,
                ..
            } => {
                let data = Data {
                    accepted: *accepted,
                    told: *told,
                    serial: *serial,
                    final_value: *final_value,
                    divergence: divergence.as_ref(),
                    told_but_lost: *told_but_lost,
                    first_told_but_lost: first_told_but_lost.as_ref(),
                };
                if self.outcome() == Outcome::Pass {
                    data.intact(f)
                } else {
                    data.lost(f)
                }
            }
        }
    }
}

/// The new holder's write was refused too, and why; a refusal for want of a token is the lock
/// service's doing, not the client's.
fn new_holder_refused(f: &mut fmt::Formatter<'_>, refusal: Refusal) -> fmt::Result {
    match refusal {
        Refusal::NoToken => f.write_str(
            "client-b's write was refused too: it carried no fencing token, because this \
             lock service issues none, and a fenced resource refuses a write without one",
        ),
        refusal => write!(f, "client-b's write was refused too: {}", Why(refusal)),
    }
}

/// The article's check on the chaos run: one accepted writer at a time, or the first two that
/// overlapped.
fn accepted_writers(
    f: &mut fmt::Formatter<'_>,
    accepted: u32,
    two_writers: Option<&TwoWriters>,
) -> fmt::Result {
    match (accepted, two_writers) {
        (0, None) => f.write_str(
            "no write was accepted at all, so there was never more than one accepted writer",
        ),
        (accepted, None) => write!(
            f,
            "the resource accepted {accepted} writes, and no two clients' accepted writes \
             were under way at the same moment"
        ),
        (_, Some(two)) => write!(f, "{}", Overlap(two)),
    }
}

/// Two accepted writes under way at one moment, in a sentence.
struct Overlap<'a>(&'a TwoWriters);

impl fmt::Display for Overlap<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let two = self.0;
        write!(
            f,
            "at event {} ({} ms) {}'s accepted write was still under way when {} sent one \
             the resource also accepted: two accepted writers at one moment",
            two.event + 1,
            two.at.0,
            two.earlier,
            two.later
        )
    }
}

/// The chaos data check's figures, for its sentence.
struct Data<'a> {
    accepted: u32,
    told: u32,
    serial: i64,
    final_value: i64,
    divergence: Option<&'a Divergence>,
    told_but_lost: u32,
    first_told_but_lost: Option<&'a LostIncrement>,
}

impl Data<'_> {
    /// The data passed: every increment is in the final value.
    fn intact(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Data {
            accepted,
            told,
            serial,
            ..
        } = self;
        write!(
            f,
            "the resource accepted {accepted} increments; applied one after \
             another they give {serial}, the register's final value, and it holds \
             all {told} increments clients were told were applied"
        )
    }

    /// The data failed: where the final value parts from the accepted increments, and what
    /// clients were told that is not in it.
    fn lost(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Data {
            accepted,
            told,
            serial,
            final_value,
            divergence,
            told_but_lost,
            first_told_but_lost,
        } = self;
        if final_value == serial {
            write!(
                f,
                "the register ends at {final_value}, as the {accepted} accepted increments give"
            )?;
        } else {
            write!(
                f,
                "the register ends at {final_value}, but the {accepted} accepted \
                 increments applied one after another give {serial}"
            )?;
        }
        if let Some(d) = divergence {
            write!(
                f,
                "; the first lost update is accepted write {}, {}'s, which set {} \
                 where {} was due",
                d.nth, d.writer, d.wrote, d.serial
            )?;
        }
        if let Some(lost) = first_told_but_lost {
            write!(
                f,
                "; {told_but_lost} of the {told} increments clients were told were \
                 applied are not in it, the first {}'s (version {})",
                lost.client, lost.version
            )?;
        }
        Ok(())
    }
}
