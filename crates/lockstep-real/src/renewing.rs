//! A client's renewals while it holds the lock (the article's `RenewingLock`): every TTL/3 from
//! the grant's answer, at most the plan's number, each recorded as a `renew` request. A pause
//! stops them with the rest of the client (a stopped process renews nothing): a renewal due
//! during a pause goes out when the pause ends. A refused renewal means the lock is lost: the
//! client renews no more and does not write.

use crate::lock::Grant;
use crate::locks::ClientLock;
use crate::record::Recorder;

/// When the acquisition that took the lock was sent and answered, by the run's clock.
#[derive(Clone, Copy)]
pub struct Held {
    pub sent_ms: u64,
    pub answered_ms: u64,
}

/// What the client holds, and its renewals so far.
pub struct Holding<'l> {
    pub lock: &'l mut ClientLock,
    pub grant: Grant,
    pub held: Held,
    /// When the last request the service acknowledged was sent: the acquire, or the latest
    /// renewal that extended the lease (the corrected `heldSafely()` counts from here).
    pub confirmed_from: u64,
    /// Told a renewal was refused: the lock is gone.
    pub lost: bool,
    renewals_left: u32,
    next_renewal: Option<u64>,
    interval: u64,
}

impl<'l> Holding<'l> {
    pub fn new(
        lock: &'l mut ClientLock,
        grant: Grant,
        held: Held,
        renewals: Option<u32>,
        ttl_ms: u64,
    ) -> Holding<'l> {
        let interval = (ttl_ms / 3).max(1);
        Holding {
            lock,
            grant,
            held,
            confirmed_from: held.sent_ms,
            lost: false,
            renewals_left: renewals.unwrap_or(0),
            next_renewal: renewals.map(|_| held.answered_ms + interval),
            interval,
        }
    }

    /// Sends every renewal due before `end`, waiting for each; `pauses` (start, length) stop
    /// the client, so a renewal due in one goes out when it ends.
    pub fn renew_until(
        &mut self,
        end: u64,
        pauses: &[(u64, u64)],
        recorder: &Recorder,
        client: &str,
        ttl_ms: u64,
    ) {
        while let Some(due) = self.next_renewal {
            let at = pauses
                .iter()
                .find(|&&(from, length)| due >= from && due < from + length)
                .map_or(due, |&(from, length)| from + length);
            if at >= end || self.renewals_left == 0 || self.lost {
                break;
            }
            recorder.wait_until(at);
            let sent = recorder.now_ms();
            // A renewal that got no answer (a cut link, a timeout) is recorded so; the client
            // goes on, as the simulation's does, and renews again when the next is due.
            let renewed = self.lock.renew(recorder, client, &self.grant, ttl_ms);
            self.renewals_left -= 1;
            match renewed {
                Ok(true) => self.confirmed_from = sent,
                Ok(false) => self.lost = true,
                Err(_) => {}
            }
            self.next_renewal = Some(at + self.interval);
        }
    }
}
