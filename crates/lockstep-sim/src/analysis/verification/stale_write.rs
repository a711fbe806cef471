//! The article's first test, "rejects work from a client that paused past expiry": the client
//! that takes the lock after the pause must get a larger token, its write must be accepted, and
//! the paused client's stale write must then be rejected.

use super::finding::Finding;
use super::two_clients::{Subject, two_clients};
use crate::engine::sim::Sim;
use crate::vocabulary::happening::Happening;
use crate::vocabulary::message::Refusal;
use crate::world::ids::NodeId;
use crate::world::time::Millis;
use crate::world::token::FencingToken;

/// What became of a client's write.
#[derive(Clone, Copy, Debug)]
enum WriteFate {
    Accepted,
    Rejected(Refusal),
}

/// What one client was given and what became of its write.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    token: Option<FencingToken>,
    write: Option<WriteFate>,
}

impl Seen {
    fn observe(&mut self, me: Option<NodeId>, happening: &Happening) {
        match *happening {
            Happening::GotLock { client, token, .. } if Some(client) == me => self.token = token,
            Happening::WriteAccepted { writer, .. } if Some(writer) == me => {
                self.write = Some(WriteFate::Accepted);
            }
            Happening::WriteRejected { writer, refusal } if Some(writer) == me => {
                self.write = Some(WriteFate::Rejected(refusal));
            }
            _ => {}
        }
    }
}

/// Runs the two-client scenario against `subject` and judges it.
pub fn stale_write(subject: &Subject) -> Finding {
    let mut sim = match Sim::new(&two_clients(subject, Millis(100))) {
        Ok(sim) => sim,
        Err(error) => return Finding::CannotRun(error.to_string()),
    };
    sim.run_to_end();
    let (a, b) = (sim.cast().find("client-a"), sim.cast().find("client-b"));
    let (mut stale, mut newer) = (Seen::default(), Seen::default());
    for event in sim.trace() {
        stale.observe(a, &event.happening);
        newer.observe(b, &event.happening);
    }
    match (newer.write, stale.write) {
        (None, _) => Finding::NewHolderNeverWrote,
        (_, None) => Finding::StaleClientNeverWrote,
        (Some(WriteFate::Rejected(refusal)), _) => Finding::NewHolderRefused { refusal },
        (Some(WriteFate::Accepted), Some(fate)) => match (stale.token, newer.token) {
            (Some(stale), Some(newer)) if newer <= stale => {
                Finding::NewerTokenNotLarger { stale, newer }
            }
            (stale_token, newer_token) => match fate {
                WriteFate::Accepted => Finding::StaleWriteAccepted {
                    stale: stale_token,
                    newer: newer_token,
                },
                WriteFate::Rejected(refusal) => Finding::StaleWriteRejected {
                    stale: stale_token,
                    newer: newer_token,
                    refusal,
                },
            },
        },
    }
}
