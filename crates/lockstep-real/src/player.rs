//! One client playing its part against real servers, recording what it saw: acquire (and try
//! again as the plan says), read, work (stretched by its pauses), write, release.

use crate::lock::{Grant, LockService};
use crate::plan::{ClientPlan, RealAccess};
use crate::postgres::Register;
use crate::record::Recorder;
use lockstep_sim::story::recorded::{Acquired, Applied, Request, Written};

/// One client playing its part.
pub struct Player<'a> {
    pub client: &'a ClientPlan,
    pub recorder: &'a Recorder,
}

impl Player<'_> {
    pub fn play(&self, mut lock: Box<dyn LockService + Send>, mut register: Register) {
        // A failed request is recorded unanswered, with its failure: the client stops there.
        let _ = self.steps(lock.as_mut(), &mut register);
    }

    /// Acquire (and try again as the plan says), read, work, write, release.
    fn steps(&self, lock: &mut dyn LockService, register: &mut Register) -> Result<(), String> {
        let name = self.client.name.as_str();
        self.recorder.wait_until(self.client.start_ms);
        let Some(grant) = self.acquire(lock)? else {
            return Ok(());
        };
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
        let from_ms = self.recorder.now_ms();
        for (at_ms, for_ms) in self.client.pauses_in(from_ms) {
            self.recorder
                .applied(name, at_ms, Applied::Pause { for_ms });
        }
        self.recorder.wait_until(self.client.work_until(from_ms));
        let token = grant.token;
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
            },
        )?;
        self.recorder.request(
            name,
            lock.server(),
            || lock.release(&grant, self.client.release),
            |released| Request::Release(released.copied()),
        )?;
        Ok(())
    }

    fn acquire(&self, lock: &mut dyn LockService) -> Result<Option<Grant>, String> {
        let (delay_ms, more) = self.client.retry.unwrap_or((0, 0));
        let ttl_ms = self.client.ttl_ms;
        for attempt in 0..=more {
            if attempt > 0 {
                self.recorder.wait_until(self.recorder.now_ms() + delay_ms);
            }
            let grant = self.recorder.request(
                &self.client.name,
                lock.server(),
                || lock.acquire(&self.client.name, attempt, ttl_ms),
                |answer| {
                    Request::Acquire(answer.map(|grant| match grant {
                        Some(grant) => Acquired::Granted {
                            token: grant.token,
                            ttl_ms: Some(ttl_ms),
                        },
                        None => Acquired::Refused,
                    }))
                },
            )?;
            if grant.is_some() {
                return Ok(grant);
            }
        }
        Ok(None)
    }
}
