//! A stretch over which a client held the lock, or believed it did, as surely as a recording
//! shows it, and what ended it: the one shape every rule of the judge compares. The judge and the
//! quorum's reading both build stretches from these; this module judges nothing itself.

use super::renewal;
use crate::story::recorded::{Applied, RecordedHistory, Request};

/// A stretch of one client's, as surely as the recording shows it: from the answer of the grant
/// that began it (`operation`) until `to_ms` (`None`: past the end of the recording), ended as
/// `ended` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Held<'a> {
    pub client: &'a str,
    pub operation: usize,
    pub from_ms: u64,
    pub to_ms: Option<u64>,
    pub ended: Ended,
}

/// What ended a stretch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The client sent its release.
    Released,
    /// The lease's TTL, counted from the acquire's send, ran out.
    Expired,
    /// Another client's release let something go (a plain `DEL` deletes whatever is there).
    LetGo,
    /// The server that granted it crashed: nobody serves it any more.
    Crashed,
    /// The clock of the server that granted it jumped forward past the lease's end.
    ClockJumped,
    /// The client was told its renewal was refused: it knows it lost the lock.
    Lost,
    /// Not within the recording.
    Open,
}

/// When `client` sent its first release at or after `after_ms`.
pub(super) fn release_after(history: &RecordedHistory, client: &str, after_ms: u64) -> Option<u64> {
    history
        .operations
        .iter()
        .find(|o| {
            o.client == client && o.at_ms >= after_ms && matches!(o.request, Request::Release(_))
        })
        .map(|o| o.at_ms)
}

/// `client`'s belief from `from_ms`, begun by `operation`, until it sends its release, is
/// told a renewal was refused, or crashes (a crashed process believes nothing).
pub(super) fn belief<'a>(
    history: &RecordedHistory,
    client: &'a str,
    operation: usize,
    from_ms: u64,
) -> Held<'a> {
    let ends = [
        (release_after(history, client, from_ms), Ended::Released),
        (renewal::lost_at(history, client, from_ms), Ended::Lost),
        (crashed_at(history, client, from_ms), Ended::Crashed),
    ];
    let (to_ms, ended) = ends
        .into_iter()
        .filter_map(|(at, why)| at.map(|at| (Some(at), why)))
        .min_by_key(|(at, _)| *at)
        .unwrap_or((None, Ended::Open));
    Held {
        client,
        operation,
        from_ms,
        to_ms,
        ended,
    }
}

/// When `client` crashed at or after `from_ms`, if it did.
fn crashed_at(history: &RecordedHistory, client: &str, from_ms: u64) -> Option<u64> {
    history
        .faults
        .iter()
        .find(|f| f.at_ms >= from_ms && f.node == client && f.applied == Applied::Crash)
        .map(|f| f.at_ms)
}
