//! One client playing its part against real servers, recording what it saw: acquire (and try
//! again as the plan says), read, work (renewing as the plan says: `renewing.rs`; a pause in it
//! holds back what follows until the pause ends, as in the simulation), check its lease if the
//! plan says so, write, release.

use crate::lock::{Grant, RequestError};
use crate::locks::ClientLock;
use crate::plan::{ClientPlan, RealAccess};
use crate::postgres::Register;
use crate::record::Recorder;
use crate::renewing::{Held, Holding};
use lockstep_sim::models::client::SafetyClock;
use lockstep_sim::story::recorded::{Applied, Request, Written};

/// One client playing its part.
pub struct Player<'a> {
    pub client: &'a ClientPlan,
    pub recorder: &'a Recorder,
}

/// The pauses made so far, by their start: a planned pause that was not (the client was not
/// working when it came) is said as a failure of the run.
type Made = std::cell::RefCell<Vec<u64>>;

impl Player<'_> {
    pub fn play(&self, mut lock: ClientLock, mut register: Register) {
        let made = Made::default();
        // A failed request is recorded unanswered, with its failure, and a crashed client sends
        // nothing more: the client stops there.
        let _ = self.steps(&mut lock, &mut register, &made);
        let alive_at = |at_ms: u64| self.client.crash_ms.is_none_or(|crash| at_ms < crash);
        for (at_ms, _) in &self.client.pauses {
            if !made.borrow().contains(at_ms) && alive_at(*at_ms) {
                self.recorder.failed(&format!(
                    "the pause of {} at {at_ms} ms was not made: it was not working then",
                    self.client.name
                ));
            }
        }
    }

    /// Acquire (and try again as the plan says), read, work (renewing as the plan says), check
    /// the lease if the plan says so, write, release.
    fn steps(
        &self,
        lock: &mut ClientLock,
        register: &mut Register,
        made: &Made,
    ) -> Result<(), RequestError> {
        let name = self.client.name.as_str();
        self.recorder.wait_until(self.client.start_ms);
        let Some((grant, held)) = self.acquire(lock)? else {
            return Ok(());
        };
        let mut holding = Holding::new(lock, grant, held, self.client.renewals, self.client.ttl_ms);
        let value = match self.client.access {
            RealAccess::ReadModifyWrite => {
                self.recorder.request(
                    name,
                    None,
                    || register.read(),
                    |v| Request::Read(v.copied()),
                )? + 1
            }
            RealAccess::BlindWrite(value) => value,
        };
        self.busy(self.client.work_ms, made, &mut holding)?;
        if !holding.lost && self.held_safely(made, &mut holding)? {
            let token = holding.grant.token;
            self.recorder.request(
                name,
                None,
                || register.write(value, token),
                |accepted| Request::Write {
                    token,
                    value,
                    outcome: accepted.map(|&yes| {
                        if yes {
                            Written::Accepted
                        } else {
                            Written::Refused
                        }
                    }),
                    applied_ms: None,
                },
            )?;
        }
        holding
            .lock
            .release(self.recorder, name, &holding.grant, self.client.release)?;
        Ok(())
    }

    /// `length` ms of the client's work from now, played as the simulation plays a pause
    /// (`ClientPlan::busy`): the work goes on during a pause that falls in it, so it ends at
    /// the later of its own end and the pause's (each pause recorded as applied), renewing
    /// the lease when due. A pause is made by the client's thread sending nothing until it
    /// ends, as a stopped process sends nothing.
    fn busy(&self, length: u64, made: &Made, holding: &mut Holding) -> Result<(), RequestError> {
        let busy = self.client.busy(self.recorder.now_ms(), length);
        for &(at_ms, for_ms) in &busy.pauses {
            self.recorder
                .applied(&self.client.name, at_ms, Applied::Pause { for_ms });
            made.borrow_mut().push(at_ms);
        }
        holding.renew_until(
            busy.end_ms,
            &busy.pauses,
            self.recorder,
            &self.client.name,
            self.client.ttl_ms,
        );
        self.recorder.wait_until(busy.end_ms);
        Ok(())
    }

    /// The lease check before the write, if the plan has one (`heldSafely()`): more than the
    /// margin left by the client's own clock, counted from the grant's answer or from the send
    /// of the last request the service acknowledged; then the gap before the write, which a
    /// pause in it outlasts. Without a check, always.
    fn held_safely(&self, made: &Made, holding: &mut Holding) -> Result<bool, RequestError> {
        let Some(check) = self.client.lease_check else {
            return Ok(true);
        };
        let from = match check.measure {
            SafetyClock::FromAcquisition => holding.held.answered_ms,
            SafetyClock::FromLastRequest => holding.confirmed_from,
        };
        let elapsed = self.recorder.now_ms().saturating_sub(from);
        let safe = self.client.ttl_ms.saturating_sub(elapsed) > check.margin_ms;
        if safe {
            self.busy(check.gap_ms, made, holding)?;
        }
        Ok(safe)
    }

    /// The lock, and when the acquisition that took it was sent and answered.
    fn acquire(&self, lock: &mut ClientLock) -> Result<Option<(Grant, Held)>, RequestError> {
        let (delay_ms, more) = self.client.retry.unwrap_or((0, 0));
        let ttl_ms = self.client.ttl_ms;
        for attempt in 0..=more {
            if attempt > 0 {
                self.recorder.wait_until(self.recorder.now_ms() + delay_ms);
            }
            let sent_ms = self.recorder.now_ms();
            let grant = lock.acquire(self.recorder, &self.client.name, attempt, ttl_ms)?;
            if let Some(grant) = grant {
                let answered_ms = self.recorder.now_ms();
                return Ok(Some((
                    grant,
                    Held {
                        sent_ms,
                        answered_ms,
                    },
                )));
            }
        }
        Ok(None)
    }
}
