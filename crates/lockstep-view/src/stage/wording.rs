//! What each box on the stage says, in short lines under its name. A client's lines narrate its
//! belief as a belief; only the service nodes' records and the resource speak for what is so.

use super::cast::{Actor, Liveness, ResourceView, View};
use crate::words::role_word;
use lockstep_sim::models::lock_service::Record;
use lockstep_sim::scenario::cast::Cast;

/// The short lines under a box's name (at most three), `narrow` for four clients to a row.
pub fn lines(actor: &Actor, cast: &Cast, narrow: bool) -> Vec<String> {
    let mut lines = Vec::with_capacity(3);
    let down = liveness_word(actor.liveness);
    match actor.view {
        View::Client(client) => {
            let state = if narrow {
                short_state(client.state)
            } else {
                client.state
            };
            lines.push(down.unwrap_or(state).to_owned());
            if client.believes {
                lines.push(
                    if narrow {
                        "believes"
                    } else {
                        "believes it holds"
                    }
                    .to_owned(),
                );
            }
            if let Some(token) = client.token {
                lines.push(format!("token {}", token.0));
            }
        }
        View::Service(service) => {
            match (down, role_word(service.role), service.role.term()) {
                (Some(word), _, _) => lines.push(word.to_owned()),
                (None, Some(role), Some(term)) => lines.push(format!("{role} · term {term}")),
                (None, Some(role), None) => lines.push(role.to_owned()),
                (None, None, _) => {}
            }
            if actor.liveness != Liveness::Crashed {
                lines.extend(record_lines(service.record, cast));
            }
        }
        View::Resource(resource) => {
            if let Some(word) = down {
                lines.push(word.to_owned());
            }
            match resource {
                ResourceView::Fenced { highest, value } => {
                    lines.push(highest.map_or("no token known".to_owned(), |t| {
                        format!("highest token {}", t.0)
                    }));
                    lines.push(format!("value {value}"));
                }
                ResourceView::Payments { charged } => lines.push(format!("charged {charged}")),
            }
            // Its box has room for two lines under its name: a down resource drops its value.
            lines.truncate(2);
        }
        View::Unknown => {}
    }
    lines.truncate(3);
    lines
}

/// A client's state in at most ten characters, for a box four to a row (about 58 px of text).
pub fn short_state(state: &'static str) -> &'static str {
    match state {
        "waiting to retry" => "waiting",
        "about to write" => "to write",
        "not started" => "not yet",
        other => other,
    }
}

fn liveness_word(liveness: Liveness) -> Option<&'static str> {
    match liveness {
        Liveness::Running => None,
        Liveness::Paused => Some("paused"),
        Liveness::Crashed => Some("crashed"),
    }
}

fn record_lines(record: Record, cast: &Cast) -> Vec<String> {
    match record {
        Record::Empty => vec!["no holder".to_owned()],
        Record::Row {
            holder,
            token,
            live,
        } => vec![
            format!("row: {}", cast.name(holder)),
            format!("token {}{}", token.0, if live { "" } else { " · expired" }),
        ],
        Record::Key { holder, token } => {
            let mut lines = vec![format!("key: {}", cast.name(holder))];
            lines.extend(token.map(|t| format!("token {}", t.0)));
            lines
        }
        Record::LowestKey { holder, revision } => vec![
            format!("lowest: {}", cast.name(holder)),
            format!("revision {}", revision.0),
        ],
    }
}
