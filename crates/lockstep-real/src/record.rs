//! What a real run's clients saw, recorded as it happens into the recorded-history format
//! (`lockstep_sim::story::recorded`): each request with the milliseconds from the run's start
//! at which it was sent and answered, and each pause applied. A client that has crashed sends
//! nothing more, and the answer to a request it sent before is lost: it is recorded unanswered,
//! as the simulation's crashed client never hears it.

use crate::lock::RequestError;
use crate::plan::Plan;
use lockstep_sim::story::recorded::{
    Applied, Fault, Operation, RecordedFencing, RecordedHistory, Recording, Request,
};
use std::sync::Mutex;
use std::time::Instant;

/// The run's clock and what was seen on it, shared by the clients' threads.
pub struct Recorder {
    start: Instant,
    operations: Mutex<Vec<Operation>>,
    faults: Mutex<Vec<Fault>>,
    failures: Mutex<Vec<String>>,
    /// The clients that have crashed so far.
    crashed: Mutex<Vec<String>>,
}

impl Recorder {
    /// A recorder whose clock starts now.
    pub fn start() -> Recorder {
        Recorder {
            start: Instant::now(),
            operations: Mutex::new(Vec::new()),
            faults: Mutex::new(Vec::new()),
            failures: Mutex::new(Vec::new()),
            crashed: Mutex::new(Vec::new()),
        }
    }

    pub fn now_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// `client` crashes now.
    pub fn crash(&self, client: &str) {
        push(&self.crashed, client.to_owned());
    }

    fn has_crashed(&self, client: &str) -> bool {
        self.crashed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .any(|c| c == client)
    }

    /// Sends one request (`send`) for `client` to `server` (where the service has several) and
    /// records it: `request` says what it was, given the answer (`None` when it failed, and the
    /// failure is kept). A client that has crashed sends nothing, and its steps end here.
    pub fn request<T>(
        &self,
        client: &str,
        server: Option<String>,
        send: impl FnOnce() -> Result<T, RequestError>,
        request: impl FnOnce(Option<&T>) -> Request,
    ) -> Result<T, RequestError> {
        if self.has_crashed(client) {
            return Err(RequestError::Crashed {
                client: client.to_owned(),
            });
        }
        let at_ms = self.now_ms();
        let answer = send();
        self.record(client, server, at_ms, answer, request)
    }

    /// Records a request sent at `at_ms` whose `answer` has just come (or failed), as
    /// [`Self::request`] does: for requests sent where a closure cannot wait (a wait in a queue). An
    /// answer that comes after its client crashed is lost, and is no failure of the run.
    pub fn record<T>(
        &self,
        client: &str,
        server: Option<String>,
        at_ms: u64,
        answer: Result<T, RequestError>,
        request: impl FnOnce(Option<&T>) -> Request,
    ) -> Result<T, RequestError> {
        let crashed = self.has_crashed(client);
        let answer = if crashed {
            Err(RequestError::CrashedBeforeAnswer {
                client: client.to_owned(),
            })
        } else {
            answer
        };
        let answered_ms = answer.is_ok().then(|| self.now_ms());
        push(
            &self.operations,
            Operation {
                client: client.to_owned(),
                at_ms,
                answered_ms,
                server,
                request: request(answer.as_ref().ok()),
            },
        );
        if let Err(why) = &answer
            && !crashed
        {
            push(&self.failures, format!("{client} at {at_ms} ms: {why}"));
        }
        answer
    }

    /// A fault applied to `node` at `at_ms`.
    pub fn applied(&self, node: &str, at_ms: u64, applied: Applied) {
        push(
            &self.faults,
            Fault {
                at_ms,
                node: node.to_owned(),
                applied,
            },
        );
    }

    /// Something that went wrong outside any client's request, in words.
    pub fn failed(&self, why: &str) {
        push(&self.failures, why.to_owned());
    }

    /// Sleeps until `at_ms` on the run's clock (at once if it has passed).
    pub fn wait_until(&self, at_ms: u64) {
        let now = self.now_ms();
        if at_ms > now {
            std::thread::sleep(std::time::Duration::from_millis(at_ms - now));
        }
    }

    /// The run as a recorded history, against the servers `against` names, on `day`.
    pub fn finish(
        self,
        plan: &Plan,
        against: Vec<String>,
        day: String,
    ) -> (RecordedHistory, Vec<String>) {
        let mut operations = taken(self.operations);
        // Requests sent at once to several servers (Redlock) in the servers' order, whichever
        // thread recorded first: the file, and the lanes drawn from it, are the same each run.
        let server_rank = |o: &Operation| {
            o.server
                .as_ref()
                .and_then(|s| plan.service_names.iter().position(|n| n == s))
        };
        operations.sort_by_key(|o| (o.at_ms, server_rank(o)));
        let mut faults = taken(self.faults);
        faults.sort_by_key(|f| f.at_ms);
        let history = RecordedHistory {
            title: format!(
                "{} (recorded against {})",
                plan.title,
                against.join(" and ")
            ),
            scenario: Some(plan.scenario.clone()),
            recorded: Recording {
                by: format!("lockstep-real {}", env!("CARGO_PKG_VERSION")),
                on: day,
                against,
            },
            lock_service: plan.lock_service_name.clone(),
            resource: plan.resource_name.clone(),
            initial_value: plan.initial_value,
            fencing: match plan.fencing {
                crate::plan::RealFencing::On => RecordedFencing::On,
                crate::plan::RealFencing::Off => RecordedFencing::Off,
            },
            quorum: plan.service.quorum(),
            operations,
            faults,
        };
        (history, taken(self.failures))
    }
}

fn push<T>(list: &Mutex<Vec<T>>, item: T) {
    list.lock().unwrap_or_else(|e| e.into_inner()).push(item);
}

fn taken<T>(list: Mutex<Vec<T>>) -> Vec<T> {
    list.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Now, in milliseconds since the Unix epoch (the system clock: what logs stamp).
pub fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Today's date (UTC) as `YYYY-MM-DD`, from the system clock: a recording says when it was
/// made. Howard Hinnant's `civil_from_days`.
pub fn today() -> String {
    civil_date(i64::try_from(unix_ms() / 86_400_000).unwrap_or(0))
}

/// The date `days` after 1970-01-01.
pub fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::civil_date;

    #[test]
    fn days_become_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(20_790), "2026-12-03");
    }
}
