//! When each write took effect, from the register's own log: each logged write is matched with
//! the write request of the client whose connection applied it (clients write in order on a
//! connection of their own, and a log entry carries the value), and its time, from the run's
//! start, becomes the request's `applied_ms`. That is how a write whose client crashed before
//! the answer came is known to have landed, and when (S4's delayed packet). It must not guess:
//! a logged write no request explains, or an accepted write the log lacks, is a failure of the
//! run.

use crate::postgres::LoggedWrite;
use lockstep_sim::story::recorded::{RecordedHistory, Request, Written};

/// How far a logged time may fall outside its request's send and answer, in milliseconds: the
/// run's clock and the server's are read apart, each to the millisecond.
const SLACK_MS: u64 = 2;

/// Gives each write of `history` the register's log shows its `applied_ms`; `backends` names
/// each client's connection, and `started_unix_ms` is the run's start by the system clock.
/// Returns what did not match, in words.
pub fn fill_applied(
    history: &mut RecordedHistory,
    log: &[LoggedWrite],
    backends: &[(String, i32)],
    started_unix_ms: u64,
) -> Vec<String> {
    let started = i64::try_from(started_unix_ms).unwrap_or(i64::MAX);
    let mut failures = Vec::new();
    for (client, backend) in backends {
        let mut entries = log.iter().filter(|w| w.backend == *backend).peekable();
        for op in history
            .operations
            .iter_mut()
            .filter(|o| &o.client == client)
        {
            let Request::Write {
                value,
                outcome,
                ref mut applied_ms,
                ..
            } = op.request
            else {
                continue;
            };
            if outcome == Some(Written::Refused) {
                continue;
            }
            match entries.next_if(|w| w.value == value) {
                Some(entry) => {
                    let logged = u64::try_from(entry.unix_ms - started).unwrap_or(0);
                    let latest = op.answered_ms.unwrap_or(u64::MAX);
                    let within = logged.clamp(op.at_ms, latest);
                    if within.abs_diff(logged) > SLACK_MS {
                        failures.push(format!(
                            "the register's log puts {client}'s write of {value} at {logged} ms, \
                             outside its send ({}) and answer",
                            op.at_ms
                        ));
                    }
                    *applied_ms = Some(within);
                }
                None if outcome.is_some() => failures.push(format!(
                    "{client}'s write of {value} was accepted, and the register's log lacks it"
                )),
                None => {}
            }
        }
        failures.extend(entries.map(|w| {
            format!(
                "the register's log shows a write of {} by {client} that no request explains",
                w.value
            )
        }));
    }
    failures
}

#[cfg(test)]
mod tests {
    use super::fill_applied;
    use crate::postgres::LoggedWrite;
    use lockstep_sim::story::recorded::RecordedHistory;

    const STARTED: u64 = 1_000_000;

    /// client-a's write is never answered (it crashed); client-b's is accepted.
    fn history() -> RecordedHistory {
        RecordedHistory::parse(
            r#"{ "history": 1, "title": "t", "recorded": { "by": "test", "on": "2026-12-03",
                "against": ["PostgreSQL"] }, "lock_service": "lock", "resource": "register",
                "initial_value": 0, "fencing": "off", "operations": [
                { "client": "a", "op": "write", "at_ms": 100, "token": 1, "value": 1 },
                { "client": "b", "op": "write", "at_ms": 200, "answered_ms": 204, "token": 2,
                  "value": 2, "accepted": true } ] }"#,
        )
        .expect("the test's history reads")
    }

    fn logged(backend: i32, value: i64, at_ms: i64) -> LoggedWrite {
        LoggedWrite {
            backend,
            value,
            unix_ms: 1_000_000 + at_ms,
        }
    }

    fn backends() -> Vec<(String, i32)> {
        vec![("a".to_owned(), 7), ("b".to_owned(), 8)]
    }

    #[test]
    fn a_logged_write_gives_its_request_the_time_it_applied() {
        let mut history = history();
        let log = [logged(8, 2, 203), logged(7, 1, 1600)];
        let failures = fill_applied(&mut history, &log, &backends(), STARTED);
        assert_eq!(failures, Vec::<String>::new());
        let applied: Vec<_> = history.operations.iter().map(|o| o.applied_ms()).collect();
        assert_eq!(applied, [Some(1600), Some(203)]);
    }

    #[test]
    fn an_unanswered_write_the_log_lacks_was_not_applied() {
        let mut history = history();
        let failures = fill_applied(&mut history, &[logged(8, 2, 203)], &backends(), STARTED);
        assert_eq!(failures, Vec::<String>::new());
        assert_eq!(history.operations[0].applied_ms(), None);
    }

    #[test]
    fn an_accepted_write_the_log_lacks_is_a_failure() {
        let mut history = history();
        let failures = fill_applied(&mut history, &[logged(7, 1, 1600)], &backends(), STARTED);
        assert_eq!(
            failures,
            ["b's write of 2 was accepted, and the register's log lacks it"]
        );
    }

    #[test]
    fn a_logged_write_no_request_explains_is_a_failure() {
        let mut history = history();
        let log = [logged(8, 2, 203), logged(8, 5, 300)];
        let failures = fill_applied(&mut history, &log, &backends(), STARTED);
        assert_eq!(
            failures,
            ["the register's log shows a write of 5 by b that no request explains"]
        );
    }

    #[test]
    fn a_logged_time_outside_the_request_is_a_failure() {
        let mut history = history();
        let log = [logged(8, 2, 250)];
        let failures = fill_applied(&mut history, &log, &backends(), STARTED);
        assert_eq!(
            failures,
            ["the register's log puts b's write of 2 at 250 ms, outside its send (200) and answer"]
        );
        assert_eq!(history.operations[1].applied_ms(), Some(204));
    }
}
