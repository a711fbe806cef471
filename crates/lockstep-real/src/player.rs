//! One client playing its part against real servers, recording what it saw: acquire (and try
//! again as the plan says), read, work (stretched by its pauses), write, release.

use crate::lock::Grant;
use crate::locks::ClientLock;
use crate::plan::{ClientPlan, RealAccess};
use crate::postgres::Register;
use crate::record::Recorder;
use lockstep_sim::story::recorded::{Applied, Request, Written};

/// One client playing its part.
pub struct Player<'a> {
    pub client: &'a ClientPlan,
    pub recorder: &'a Recorder,
}

impl Player<'_> {
    pub fn play(&self, mut lock: ClientLock, mut register: Register) {
        // A failed request is recorded unanswered, with its failure: the client stops there.
        let _ = self.steps(&mut lock, &mut register);
    }

    /// Acquire (and try again as the plan says), read, work, write, release.
    fn steps(&self, lock: &mut ClientLock, register: &mut Register) -> Result<(), String> {
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
        lock.release(self.recorder, name, &grant, self.client.release)?;
        Ok(())
    }

    fn acquire(&self, lock: &mut ClientLock) -> Result<Option<Grant>, String> {
        let (delay_ms, more) = self.client.retry.unwrap_or((0, 0));
        let ttl_ms = self.client.ttl_ms;
        for attempt in 0..=more {
            if attempt > 0 {
                self.recorder.wait_until(self.recorder.now_ms() + delay_ms);
            }
            let grant = lock.acquire(self.recorder, &self.client.name, attempt, ttl_ms)?;
            if grant.is_some() {
                return Ok(grant);
            }
        }
        Ok(None)
    }
}
