//! What a run came to at the resource, computed from its trace: which requests were refused and
//! why, which accepted writes overwrote updates their writers never read, which charges were
//! applied twice.
//!
//! Scenario titles and summaries state the setup; whether a stale write is rejected depends on
//! settings the user can change (fencing) and on their interventions, so the outcome is never
//! written by hand: the app and the command line show these lines, read from the run itself.
//! This module only reads a trace; it decides nothing the simulation decides.

use crate::engine::trace::TraceEvent;
use crate::scenario::cast::Cast;
use crate::story::describe::words::request_noun;
use crate::vocabulary::happening::{Happening, Request};
use crate::vocabulary::message::Refusal;
use crate::vocabulary::unseen_updates::UnseenUpdates;
use crate::world::ids::NodeId;
use crate::world::time::VirtualTime;
use crate::world::token::FencingToken;
use std::collections::BTreeMap;
use std::fmt;

/// One thing the resource did that decides how the run ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The resource refused a request.
    Refused {
        at: VirtualTime,
        client: NodeId,
        request: Request,
        token: Option<FencingToken>,
        refusal: Refusal,
    },
    /// The resource accepted a read-modify-write based on an old version: the updates in
    /// between, by `overwritten`, are lost.
    LostUpdate {
        at: VirtualTime,
        client: NodeId,
        token: Option<FencingToken>,
        /// The higher token the resource had accepted before, if this write's was stale.
        after: Option<FencingToken>,
        overwritten: Writers,
    },
    /// The resource accepted a write whose token is lower than one it had accepted before
    /// (and lost no update with it).
    StaleAccepted {
        at: VirtualTime,
        client: NodeId,
        token: FencingToken,
        highest: FencingToken,
    },
    /// A payment request was charged more than once.
    ChargedAgain {
        at: VirtualTime,
        client: NodeId,
        key: u32,
        times: u32,
    },
}

/// Up to two writers whose updates were overwritten (more are summed up as "others").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Writers {
    pub first: Option<NodeId>,
    pub second: Option<NodeId>,
    pub more: bool,
}

/// How a run ended at the resource: its findings in trace order, and how many writes (or orders,
/// or charges) the resource accepted and refused.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunOutcome {
    pub findings: Vec<Finding>,
    pub accepted: u32,
    pub refused: u32,
}

impl RunOutcome {
    /// Reads the outcome from a trace.
    pub fn of(trace: &[TraceEvent]) -> RunOutcome {
        let mut reading = Reading::default();
        for event in trace {
            reading.read(event.time, event.happening);
        }
        reading.outcome
    }

    /// The outcome in sentences, with the cast's names: one per finding, or one line saying
    /// that nothing went wrong at the resource.
    pub fn lines(&self, cast: &Cast) -> Vec<String> {
        if self.findings.is_empty() {
            return vec![match (self.accepted, self.refused) {
                (0, _) => "No request reached the resource.".to_owned(),
                (1, _) => "The resource accepted the one request it received; no update was lost."
                    .to_owned(),
                (n, _) => {
                    format!(
                        "The resource accepted all {n} requests it received; no update was lost."
                    )
                }
            }];
        }
        self.findings
            .iter()
            .map(|f| Named(f, cast).to_string())
            .collect()
    }
}

/// `RunOutcome::of` under way: the outcome so far, and what judging the next event needs —
/// who wrote each version, what each client last sent, the highest token accepted.
#[derive(Default)]
struct Reading {
    outcome: RunOutcome,
    writer_of_version: BTreeMap<u64, NodeId>,
    request_of: BTreeMap<NodeId, (Request, Option<FencingToken>)>,
    highest: Option<FencingToken>,
}

impl Reading {
    fn read(&mut self, at: VirtualTime, happening: Happening) {
        match happening {
            Happening::WriteSent {
                client,
                request,
                token,
                ..
            } => {
                self.request_of.insert(client, (request, token));
            }
            Happening::WriteAccepted {
                writer,
                token,
                version,
                overwrote_unseen,
                ..
            } => self.write_accepted(at, writer, token, version, overwrote_unseen),
            Happening::StockTaken { token, .. } => {
                self.outcome.accepted += 1;
                self.raise(token);
            }
            Happening::ChargeApplied {
                payer, key, times, ..
            } => {
                self.outcome.accepted += 1;
                if times > 1 {
                    self.outcome.findings.push(Finding::ChargedAgain {
                        at,
                        client: payer,
                        key,
                        times,
                    });
                }
            }
            Happening::ChargeReplayed { .. } => self.outcome.accepted += 1,
            Happening::WriteRejected { writer, refusal } => {
                self.outcome.refused += 1;
                let (request, token) = self
                    .request_of
                    .get(&writer)
                    .copied()
                    .unwrap_or((Request::Write, None));
                self.outcome.findings.push(Finding::Refused {
                    at,
                    client: writer,
                    request,
                    token,
                    refusal,
                });
            }
            _ => {}
        }
    }

    /// An accepted write: a lost update if it overwrote versions its writer never read, else
    /// a stale write if its token is below one accepted before.
    fn write_accepted(
        &mut self,
        at: VirtualTime,
        writer: NodeId,
        token: Option<FencingToken>,
        version: u64,
        overwrote_unseen: Option<UnseenUpdates>,
    ) {
        self.outcome.accepted += 1;
        let stale = match (token, self.highest) {
            (Some(token), Some(seen)) if token < seen => Some((token, seen)),
            _ => None,
        };
        if let Some(unseen) = overwrote_unseen {
            let mut writers = (unseen.read_version + 1..=unseen.current_version)
                .filter_map(|v| self.writer_of_version.get(&v).copied())
                .filter(|w| *w != writer);
            let (first, second) = (writers.next(), writers.next());
            let more = writers.next().is_some();
            self.outcome.findings.push(Finding::LostUpdate {
                at,
                client: writer,
                token,
                after: stale.map(|(_, seen)| seen),
                overwritten: Writers {
                    first,
                    second,
                    more,
                },
            });
        } else if let Some((token, seen)) = stale {
            self.outcome.findings.push(Finding::StaleAccepted {
                at,
                client: writer,
                token,
                highest: seen,
            });
        }
        self.writer_of_version.insert(version, writer);
        self.raise(token);
    }

    /// The highest token accepted, raised by an accepted request's token.
    fn raise(&mut self, token: Option<FencingToken>) {
        let highest = self.highest;
        self.highest = token.map_or(highest, |t| Some(highest.map_or(t, |h| h.max(t))));
    }
}

/// A finding with the cast's names, as a sentence.
struct Named<'a>(&'a Finding, &'a Cast);

impl fmt::Display for Named<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cast = self.1;
        let n = |node: NodeId| cast.name(node).to_owned();
        match *self.0 {
            Finding::Refused {
                at,
                client,
                request,
                token,
                refusal,
            } => {
                write!(
                    f,
                    "At {} ms {}'s {}{} was refused: ",
                    at.0,
                    n(client),
                    request_noun(request),
                    with_token(token)
                )?;
                write_refusal(f, refusal)
            }
            Finding::LostUpdate {
                at,
                client,
                token,
                after,
                overwritten,
            } => {
                let whose = whose_lost(overwritten, n);
                let stale = after.map_or_else(String::new, |h| {
                    format!(" although token {h} had been accepted before,")
                });
                write!(
                    f,
                    "At {} ms {}'s write{} was accepted{stale} over a value it never read: {whose}.",
                    at.0,
                    n(client),
                    with_token(token)
                )
            }
            Finding::StaleAccepted {
                at,
                client,
                token,
                highest,
            } => write!(
                f,
                "At {} ms {}'s write with token {token} was accepted after token {highest}: a stale write.",
                at.0,
                n(client)
            ),
            Finding::ChargedAgain {
                at,
                client,
                key,
                times,
            } => write!(
                f,
                "At {} ms {}'s charge with key {key} was applied {times} times.",
                at.0,
                n(client)
            ),
        }
    }
}

fn with_token(token: Option<FencingToken>) -> String {
    token.map_or_else(String::new, |t| format!(" with token {t}"))
}

/// Why the resource refused, as the end of the sentence.
fn write_refusal(f: &mut fmt::Formatter<'_>, refusal: Refusal) -> fmt::Result {
    match refusal {
        Refusal::StaleToken {
            presented,
            required,
        } => write!(f, "{presented} < {required}, the highest token accepted."),
        Refusal::NoToken => f.write_str("fencing is on and it carried no token."),
        Refusal::VersionChanged { expected, actual } => write!(
            f,
            "it expected version {expected}, the row was at version {actual}."
        ),
        Refusal::SoldOut { wanted, left } => {
            write!(f, "it wanted {wanted}, only {left} left.")
        }
        Refusal::ClaimedByAnother => {
            f.write_str("another lock holder had claimed the resource since.")
        }
        Refusal::SequencerInvalid { presented } => write!(
            f,
            "the lock service said token {presented} was no longer a live lease."
        ),
    }
}

/// Whose updates a lost update overwrote, in words.
fn whose_lost(overwritten: Writers, n: impl Fn(NodeId) -> String) -> String {
    match (overwritten.first, overwritten.second, overwritten.more) {
        (Some(a), None, _) => format!("{}'s update is lost", n(a)),
        (Some(a), Some(b), false) => format!("{}'s and {}'s updates are lost", n(a), n(b)),
        (Some(a), Some(_), true) => format!("updates by {} and others are lost", n(a)),
        (None, _, _) => "an update is lost".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::resource::Fencing;
    use crate::{Sim, scenario::catalogue};

    fn lines(id: &str, fencing: Option<Fencing>) -> Vec<String> {
        let mut scenario = catalogue::find(id)
            .and_then(|b| b.load().ok())
            .unwrap_or_else(|| panic!("{id} is built in"));
        if let Some(fencing) = fencing {
            scenario.resource = scenario.resource.with_fencing(fencing);
        }
        let mut sim = Sim::new(&scenario).expect("runs");
        sim.run_to_end();
        RunOutcome::of(sim.trace()).lines(sim.cast())
    }

    #[test]
    fn the_fenced_zombie_is_refused_and_unfenced_it_overwrites() {
        assert_eq!(
            lines("s2-gc-pause-fenced", None),
            [
                "At 2058 ms client-a's write with token 33 was refused: 33 < 34, the highest token accepted."
            ]
        );
        assert_eq!(
            lines("s2-gc-pause-fenced", Some(Fencing::Off)),
            [
                "At 2058 ms client-a's write with token 33 was accepted although token 34 had been accepted before, over a value it never read: client-b's update is lost."
            ]
        );
    }

    #[test]
    fn the_fencing_gap_loses_the_zombies_update_with_fencing_on() {
        let lines = lines("s3-fencing-gap", None);
        assert!(
            lines
                .iter()
                .any(|l| l.contains("client-b's write with token 34 was accepted over a value it never read: client-a's update is lost")),
            "{lines:?}"
        );
    }

    #[test]
    fn a_sold_out_order_is_an_order_and_a_double_charge_is_counted() {
        let orders = lines("a2-conditional-decrement", None);
        assert!(
            orders
                .iter()
                .any(|l| l.contains("buyer-b's order was refused: it wanted 1, only 0 left")),
            "{orders:?}"
        );
        let charges = lines("a3-no-idempotency-keys", None);
        assert!(
            charges.iter().any(|l| l.contains("applied 2 times")),
            "{charges:?}"
        );
        assert_eq!(
            lines("a3-idempotency-keys", None),
            ["The resource accepted all 2 requests it received; no update was lost."]
        );
    }
}
