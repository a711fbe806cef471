//! A recorded history as a list of moments in time order, each said in words: a request sent,
//! its answer, a write the resource applied though its client never heard, a fault applied, a
//! pause over, a lease run out. The page steps through these as
//! it steps through a simulated trace's events.

use lockstep_sim::analysis::recorded_verdicts::{Ended, server_leases};
use lockstep_sim::story::numbers::thousands;
use lockstep_sim::story::recorded::{
    Acquired, Applied, Fault, RecordedHistory, Renewed, Request, Written,
};
use lockstep_sim::vocabulary::happening::Direction;

/// One moment of a recording.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordedEvent {
    pub at_ms: u64,
    pub what: What,
}

/// What happened at a moment; the numbers index the history's operations or faults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum What {
    /// A request's answer came (before any request sent in the same millisecond).
    Answered(usize),
    /// The resource applied a write, by its own log, whose client never saw an answer.
    Applied(usize),
    Sent(usize),
    Fault(usize),
    PauseEnded(usize),
    /// The lease granted by this acquire surely ran out (its TTL, from the request's send).
    LeaseRanOut(usize),
}

/// Every moment of `history`, in time order.
pub fn events(history: &RecordedHistory) -> Vec<RecordedEvent> {
    let mut events = Vec::new();
    for (i, op) in history.operations.iter().enumerate() {
        events.push(RecordedEvent {
            at_ms: op.at_ms,
            what: What::Sent(i),
        });
        if let Some(at_ms) = op.answered_ms {
            events.push(RecordedEvent {
                at_ms,
                what: What::Answered(i),
            });
        } else if let Some(at_ms) = op.applied_ms() {
            events.push(RecordedEvent {
                at_ms,
                what: What::Applied(i),
            });
        }
    }
    for (i, fault) in history.faults.iter().enumerate() {
        events.push(RecordedEvent {
            at_ms: fault.at_ms,
            what: What::Fault(i),
        });
        if let Applied::Pause { for_ms } = fault.applied {
            events.push(RecordedEvent {
                at_ms: fault.at_ms + for_ms,
                what: What::PauseEnded(i),
            });
        }
    }
    for lease in server_leases(history) {
        if let (Some(at_ms), Ended::Expired) = (lease.to_ms, lease.ended) {
            events.push(RecordedEvent {
                at_ms,
                what: What::LeaseRanOut(lease.operation),
            });
        }
    }
    events.sort_by_key(|e| (e.at_ms, e.what));
    events
}

/// The moment in words, naming the recording's lock service and resource.
pub fn words(history: &RecordedHistory, event: &RecordedEvent) -> String {
    let service = &history.lock_service;
    let resource = &history.resource;
    match event.what {
        What::Sent(i) => {
            let op = &history.operations[i];
            let client = &op.client;
            let service = op.server.as_deref().unwrap_or(service);
            let unanswered = if op.answered_ms.is_none() {
                ": no answer ever comes"
            } else {
                ""
            };
            let asked = match op.request {
                Request::Acquire(answer) => {
                    let ttl = match answer {
                        Some(Acquired::Granted {
                            ttl_ms: Some(ttl), ..
                        }) => format!(" for {} ms", thousands(ttl)),
                        _ => String::new(),
                    };
                    format!("{client} asks {service} for the lock{ttl}")
                }
                Request::Read(_) => format!("{client} reads {resource}"),
                Request::Write { token, value, .. } => {
                    format!("{client} writes {value} to {resource}{}", with_token(token))
                }
                Request::Release(_) => format!("{client} asks {service} to release the lock"),
                Request::Renew(_) => format!("{client} asks {service} to renew its lease"),
            };
            format!("{asked}{unanswered}")
        }
        What::Answered(i) => answered(history, i),
        What::Applied(i) => applied(history, i),
        What::Fault(i) => fault_words(&history.faults[i]),
        What::PauseEnded(i) => format!("{} runs again", history.faults[i].node),
        What::LeaseRanOut(i) => {
            let op = &history.operations[i];
            format!(
                "{}'s lease has run out at {} (its TTL, counted from the request)",
                op.client,
                op.server.as_deref().unwrap_or(service)
            )
        }
    }
}

/// A write the resource's log says it applied, whose client never heard.
fn applied(history: &RecordedHistory, i: usize) -> String {
    let op = &history.operations[i];
    let (token, value) = match op.request {
        Request::Write { token, value, .. } => (token, value),
        _ => (None, 0),
    };
    format!(
        "{} applies {}'s write of {value}{}, sent at {} ms, by its own log; no answer reaches {}",
        history.resource,
        op.client,
        with_token(token),
        thousands(op.at_ms),
        op.client
    )
}

fn fault_words(fault: &Fault) -> String {
    let node = &fault.node;
    match &fault.applied {
        Applied::Pause { for_ms } => {
            format!(
                "{node} stops for {} ms (a pause: it does nothing)",
                thousands(*for_ms)
            )
        }
        Applied::Crash => format!("{node} crashes"),
        Applied::Restart => format!("{node} restarts"),
        Applied::Failover => format!("{node} is promoted in its primary's place"),
        Applied::ClockJump { by_ms } => format!("{node}'s clock jumps by {by_ms} ms"),
        Applied::Cut {
            peer,
            direction: Direction::Both,
        } => format!("the link between {node} and {peer} is cut: nothing crosses it"),
        Applied::Cut {
            peer,
            direction: Direction::OneWay,
        } => format!(
            "what {node} sends to {peer} is lost from now on; {peer}'s answers still arrive"
        ),
    }
}

fn answered(history: &RecordedHistory, i: usize) -> String {
    let op = &history.operations[i];
    let client = &op.client;
    let service = op.server.as_deref().unwrap_or(&history.lock_service);
    let resource = &history.resource;
    match op.request {
        Request::Acquire(Some(Acquired::Granted { token, .. })) => {
            format!("{service} grants {client} the lock{}", with_token(token))
        }
        Request::Acquire(_) => format!("{service} tells {client} the lock is held"),
        Request::Read(value) => format!(
            "{resource} answers {client}: {}",
            value.map_or_else(|| "?".to_owned(), |v| v.to_string())
        ),
        Request::Write {
            token,
            value,
            outcome,
            ..
        } => match outcome {
            Some(Written::Accepted) => {
                format!(
                    "{resource} accepts {client}'s write of {value}{}",
                    with_token(token)
                )
            }
            _ => format!("{resource} refuses {client}'s write{}", with_token(token)),
        },
        Request::Release(Some(true)) => format!("{service} releases the lock for {client}"),
        Request::Release(_) => {
            format!("{service} had no lock of {client}'s to release: nothing changes")
        }
        Request::Renew(Some(Renewed::Extended { ttl_ms })) => format!(
            "{service} renews {client}'s lease{}",
            ttl_ms.map_or_else(String::new, |t| format!(" for {} ms", thousands(t)))
        ),
        Request::Renew(_) => {
            format!("{service} holds no lease of {client}'s to renew: {client} has lost the lock")
        }
    }
}

fn with_token(token: Option<u64>) -> String {
    token.map_or_else(String::new, |t| format!(" with token {t}"))
}
