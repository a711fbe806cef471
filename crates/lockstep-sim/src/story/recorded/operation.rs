//! One request of a recorded history's file, checked and typed, and written back.

use super::error::HistoryError;
use super::file::{FileOperation, OpKind};
use super::request::{Acquired, Operation, Renewed, Request, Written};

pub(super) fn operation(index: usize, op: &FileOperation) -> Result<Operation, HistoryError> {
    check_fields(index, op)?;
    let request = match op.op {
        OpKind::Acquire => Request::Acquire(op.granted.map(|granted| {
            if granted {
                Acquired::Granted {
                    token: op.token,
                    ttl_ms: op.ttl_ms,
                }
            } else {
                Acquired::Refused
            }
        })),
        OpKind::Read => Request::Read(op.value),
        OpKind::Write => Request::Write {
            token: op.token,
            value: op.value.ok_or_else(|| {
                HistoryError::at_operation(
                    index,
                    "value",
                    "a write needs the value it wrote".to_owned(),
                )
            })?,
            outcome: op.accepted.map(|accepted| {
                if accepted {
                    Written::Accepted
                } else {
                    Written::Refused
                }
            }),
            applied_ms: op.applied_ms,
        },
        OpKind::Release => Request::Release(op.released),
        OpKind::Renew => Request::Renew(op.renewed.map(|renewed| {
            if renewed {
                Renewed::Extended { ttl_ms: op.ttl_ms }
            } else {
                Renewed::Refused
            }
        })),
    };
    Ok(Operation {
        client: op.client.clone(),
        at_ms: op.at_ms,
        answered_ms: op.answered_ms,
        server: op.server.clone(),
        request,
    })
}

/// The fields `op` carries are the ones its kind has, with an answer's fields exactly when it
/// was answered.
fn check_fields(index: usize, op: &FileOperation) -> Result<(), HistoryError> {
    let present = [
        ("granted", op.granted.is_some()),
        ("token", op.token.is_some()),
        ("ttl_ms", op.ttl_ms.is_some()),
        ("value", op.value.is_some()),
        ("accepted", op.accepted.is_some()),
        ("applied_ms", op.applied_ms.is_some()),
        ("released", op.released.is_some()),
        ("renewed", op.renewed.is_some()),
    ];
    if let Some((field, _)) = present
        .iter()
        .find(|(field, here)| *here && !allowed(op.op).contains(field))
    {
        return Err(HistoryError::at_operation(
            index,
            field,
            format!("{} has no \"{field}\"", op_words(op.op)),
        ));
    }
    if op.server.as_deref() == Some("") {
        return Err(HistoryError::at_operation(
            index,
            "server",
            "is empty".to_owned(),
        ));
    }
    if op.client.is_empty() {
        return Err(HistoryError::at_operation(
            index,
            "client",
            "is empty".to_owned(),
        ));
    }
    if let Some(answered) = op.answered_ms
        && answered < op.at_ms
    {
        return Err(HistoryError::at_operation(
            index,
            "answered_ms",
            format!("{answered} is before the request was sent ({})", op.at_ms),
        ));
    }
    check_applied(index, op)?;
    // An answer's field without an answer, or an answer without its field.
    let (field, has_answer_field) = match op.op {
        OpKind::Acquire => ("granted", op.granted.is_some()),
        OpKind::Read => ("value", op.value.is_some()),
        OpKind::Write => ("accepted", op.accepted.is_some()),
        OpKind::Release => ("released", op.released.is_some()),
        OpKind::Renew => ("renewed", op.renewed.is_some()),
    };
    match op.answered_ms {
        Some(answered) if !has_answer_field => {
            return Err(HistoryError::at_operation(
                index,
                field,
                format!(
                    "{} answered at {answered} ms needs \"{field}\"",
                    op_words(op.op)
                ),
            ));
        }
        None if has_answer_field => {
            return Err(HistoryError::at_operation(
                index,
                field,
                "is an answer, and the request has no \"answered_ms\"".to_owned(),
            ));
        }
        _ => {}
    }
    Ok(())
}

/// A write's `applied_ms` falls between its send and its answer, and a write its client was
/// told was refused was not applied.
fn check_applied(index: usize, op: &FileOperation) -> Result<(), HistoryError> {
    let Some(applied) = op.applied_ms else {
        return Ok(());
    };
    let wrong = if applied < op.at_ms {
        Some(format!(
            "{applied} is before the write was sent ({})",
            op.at_ms
        ))
    } else if let Some(answered) = op.answered_ms.filter(|&a| a < applied) {
        Some(format!(
            "{applied} is after the write was answered ({answered})"
        ))
    } else if op.accepted == Some(false) {
        Some("a write the resource refused was not applied".to_owned())
    } else {
        None
    };
    wrong.map_or(Ok(()), |why| {
        Err(HistoryError::at_operation(index, "applied_ms", why))
    })
}

/// The fields an operation of `kind` may carry besides client, op and the times.
fn allowed(kind: OpKind) -> &'static [&'static str] {
    match kind {
        OpKind::Acquire => &["granted", "token", "ttl_ms"],
        OpKind::Read => &["value"],
        OpKind::Write => &["token", "value", "accepted", "applied_ms"],
        OpKind::Release => &["released"],
        OpKind::Renew => &["renewed", "ttl_ms"],
    }
}

fn op_words(kind: OpKind) -> &'static str {
    match kind {
        OpKind::Acquire => "an acquire",
        OpKind::Read => "a read",
        OpKind::Write => "a write",
        OpKind::Release => "a release",
        OpKind::Renew => "a renewal",
    }
}

pub(super) fn file_operation(op: &Operation) -> FileOperation {
    let mut file = FileOperation {
        client: op.client.clone(),
        op: OpKind::Read,
        at_ms: op.at_ms,
        server: op.server.clone(),
        answered_ms: op.answered_ms,
        granted: None,
        token: None,
        ttl_ms: None,
        value: None,
        accepted: None,
        applied_ms: None,
        released: None,
        renewed: None,
    };
    match op.request {
        Request::Acquire(answer) => {
            file.op = OpKind::Acquire;
            file.granted = answer.map(|a| matches!(a, Acquired::Granted { .. }));
            if let Some(Acquired::Granted { token, ttl_ms }) = answer {
                file.token = token;
                file.ttl_ms = ttl_ms;
            }
        }
        Request::Read(value) => file.value = value,
        Request::Write {
            token,
            value,
            outcome,
            applied_ms,
        } => {
            file.op = OpKind::Write;
            file.token = token;
            file.value = Some(value);
            file.accepted = outcome.map(|o| o == Written::Accepted);
            file.applied_ms = applied_ms;
        }
        Request::Release(released) => {
            file.op = OpKind::Release;
            file.released = released;
        }
        Request::Renew(answer) => {
            file.op = OpKind::Renew;
            file.renewed = answer.map(|a| matches!(a, Renewed::Extended { .. }));
            if let Some(Renewed::Extended { ttl_ms }) = answer {
                file.ttl_ms = ttl_ms;
            }
        }
    }
    file
}
