//! The run's outcome in one line, for beside the timeline once the run has reached its end:
//! "Data lost: 1 stale write accepted", "Data intact: 1 stale write refused" or "No update lost:
//! 2 writes accepted". Read from the
//! simulator's `RunOutcome` (its findings and counts), in its words: the full outcome, one
//! sentence a finding, stays below the story.

use lockstep_sim::story::outcome::{Finding, RunOutcome};
use lockstep_sim::vocabulary::happening::Request;
use lockstep_sim::vocabulary::message::Refusal;

/// Whether the data came through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// An update was lost, a stale write accepted or a charge applied twice.
    Lost,
    /// Nothing went wrong at the resource.
    Intact,
    /// No request reached the resource.
    Untouched,
}

/// The verdict line: its tone and its words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub tone: Tone,
    pub line: String,
}

impl Verdict {
    /// The verdict of a finished run's outcome; `request` is what the resource is asked for.
    pub fn of(outcome: &RunOutcome, request: Request) -> Verdict {
        let noun = match request {
            Request::Write => "write",
            Request::Order => "order",
            Request::Charge => "charge",
        };
        let count =
            |test: &dyn Fn(&Finding) -> bool| outcome.findings.iter().filter(|f| test(f)).count();
        let lost = count(&|f| matches!(f, Finding::LostUpdate { .. }));
        let stale = count(&|f| {
            matches!(f, Finding::StaleAccepted { .. })
                || matches!(f, Finding::LostUpdate { after: Some(_), .. })
        });
        let twice = count(&|f| matches!(f, Finding::ChargedAgain { .. }));
        // A refusal for want of stock protects nothing; one for want of a token is not of a
        // stale request; the others refuse a request made on an old lock or an old read.
        let refused = count(&|f| {
            matches!(f, Finding::Refused { refusal, .. }
                if !matches!(refusal, Refusal::SoldOut { .. } | Refusal::NoToken))
        });
        let untokened = count(&|f| {
            matches!(
                f,
                Finding::Refused {
                    refusal: Refusal::NoToken,
                    ..
                }
            )
        });
        let mut bad = Vec::new();
        if stale > 0 {
            bad.push(counted(stale, &format!("stale {noun}"), "accepted"));
        }
        if lost > 0 {
            bad.push(counted(lost, "update", "lost"));
        }
        if twice > 0 {
            bad.push(counted(twice, "charge", "applied twice"));
        }
        if !bad.is_empty() {
            let head = if twice > 0 && stale + lost == 0 {
                "Charged twice"
            } else {
                "Data lost"
            };
            return Verdict {
                tone: Tone::Lost,
                line: format!("{head}: {}", bad.join(", ")),
            };
        }
        let line = match (outcome.accepted, refused + untokened) {
            (0, 0) => {
                return Verdict {
                    tone: Tone::Untouched,
                    line: "No request reached the resource".to_owned(),
                };
            }
            // As the simulator says it: accepted, and no update lost.
            (_, 0) => format!(
                "No update lost: {}",
                counted(outcome.accepted as usize, noun, "accepted")
            ),
            _ => {
                let mut parts = Vec::new();
                if refused > 0 {
                    parts.push(counted(refused, &format!("stale {noun}"), "refused"));
                }
                if untokened > 0 {
                    parts.push(counted(
                        untokened,
                        &format!("{noun} without a token"),
                        "refused",
                    ));
                }
                format!("Data intact: {}", parts.join(", "))
            }
        };
        Verdict {
            tone: Tone::Intact,
            line,
        }
    }
}

/// "1 stale write accepted", "2 updates lost".
fn counted(n: usize, noun: &str, what: &str) -> String {
    let plural = if n == 1 { "" } else { "s" };
    format!("{n} {noun}{plural} {what}")
}
