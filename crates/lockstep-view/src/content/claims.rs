//! The checkable claims in a text, and whether a run bears them out at a position.
//!
//! A lesson step's words sit beside a timeline that shows the run up to the step's event, so any
//! number or holder the words name must be on that screen already. The extractor is deliberately
//! small and strict: it reads only the phrasings below, and each must agree with the trace up to
//! and including the position.
//!
//! | Phrase | Claim | True when, among the events shown |
//! |---|---|---|
//! | `token 33`, `tokens 33 and 34`, `revision 2`, `epoch 7` | a token | some event carries it (a grant, a write, a refusal's highest token) |
//! | `at 1007 ms` | a moment | some event happens at that virtual time |
//! | `300 ms left` | time left | a client's lease check found that much |
//! | `300 ms` (any other `N ms`) | a duration | some event states it (a TTL, a pause, work, time left, a margin, a delay, an elapsed time, a validity, a clock jump) |
//! | `value 0` | a value | some read or write carries it |
//! | `client-a holds the lock` | the holder | the lock service grants the lock to that client at the position |
//!
//! It must not guess: words it does not recognise are not claims, and a text that needs a number
//! the trace does not state should say it another way.

use super::shown::Shown;
use crate::run::Run;
use lockstep_sim::vocabulary::happening::Happening;
use lockstep_sim::vocabulary::message::Refusal;
use lockstep_sim::vocabulary::next_step::NextStep;

/// One checkable claim found in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    Token(u64),
    Moment(u64),
    Duration(u64),
    /// `300 ms left`: what a client's own lease check found.
    TimeLeft(u64),
    Value(i64),
    Holder(String),
}

/// Every claim in `text`, in order.
pub fn extract(text: &str, names: &[&str]) -> Vec<Claim> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let bare = |w: &str| {
        w.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '-')
            .to_owned()
    };
    let number = |w: &str| bare(w).replace(',', "").parse::<u64>().ok();
    let mut claims = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let word = bare(word).to_ascii_lowercase();
        let next = words.get(i + 1).copied();
        match word.as_str() {
            "token" | "revision" | "epoch" => {
                if let Some(n) = next.and_then(number) {
                    claims.push(Claim::Token(n));
                }
            }
            "tokens" | "revisions" | "epochs" => {
                // "tokens 33 and 34": each number of the list.
                for w in words[i + 1..].iter().take(4) {
                    match number(w) {
                        Some(n) => claims.push(Claim::Token(n)),
                        None if bare(w) == "and" => {}
                        None => break,
                    }
                }
            }
            "value" => {
                if let Some(n) = next.and_then(|w| bare(w).parse::<i64>().ok()) {
                    claims.push(Claim::Value(n));
                }
            }
            "ms" => {
                if let Some(n) = i.checked_sub(1).and_then(|j| number(words[j])) {
                    let at = i >= 2 && bare(words[i - 2]).eq_ignore_ascii_case("at");
                    let left = next.is_some_and(|w| bare(w) == "left");
                    claims.push(match (at, left) {
                        (true, _) => Claim::Moment(n),
                        (false, true) => Claim::TimeLeft(n),
                        (false, false) => Claim::Duration(n),
                    });
                }
            }
            _ => {}
        }
        let holds = next.is_some_and(|w| bare(w) == "holds")
            && words.get(i + 2).is_some_and(|w| bare(w) == "the")
            && words.get(i + 3).is_some_and(|w| bare(w) == "lock");
        if holds && let Some(name) = names.iter().find(|n| bare(words[i]) == **n) {
            claims.push(Claim::Holder((*name).to_owned()));
        }
    }
    claims
}

/// Which moment a holder claim speaks of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HolderAt {
    /// The position shown (a lesson step).
    Position,
    /// Some moment of the events shown (a scenario's summary tells the whole run).
    AnyMoment,
}

/// The claims in `text` that `run` does not bear out at `shown`, each with why.
pub fn unsupported(text: &str, run: &Run, shown: Shown, holder_at: HolderAt) -> Vec<String> {
    let cast = run.sim.cast();
    let names: Vec<&str> = (0..cast.len())
        .map(|i| cast.name(lockstep_sim::world::ids::NodeId(i as u16)))
        .collect();
    let shown_events = shown
        .last()
        .map_or(&run.sim.trace()[..0], |last| &run.sim.trace()[..=last]);
    let happenings = || shown_events.iter().map(|e| &e.happening);
    extract(text, &names)
        .into_iter()
        .filter_map(|claim| {
            let holds = match &claim {
                Claim::Token(n) => happenings().any(|h| tokens(h).contains(&Some(*n))),
                Claim::Moment(t) => shown_events.iter().any(|e| e.time.0 == *t),
                Claim::Duration(d) => happenings().any(|h| durations(h).contains(&Some(*d))),
                Claim::TimeLeft(d) => happenings().any(|h| time_left(h) == Some(*d)),
                Claim::Value(v) => happenings().any(|h| value(h) == Some(*v)),
                Claim::Holder(name) => match (holder_at, shown.last()) {
                    (_, None) => name == "nobody",
                    (HolderAt::Position, Some(i)) => run.holder_after(i) == *name,
                    (HolderAt::AnyMoment, Some(last)) => (0..=last)
                        .filter(|i| run.leases.iter().any(|c| c.event == *i))
                        .any(|i| run.holder_after(i) == *name),
                },
            };
            (!holds).then(|| format!("{claim:?} is not borne out by the events shown"))
        })
        .collect()
}

fn tokens(h: &Happening) -> [Option<u64>; 2] {
    let required = match h {
        Happening::WriteRejected {
            refusal: Refusal::StaleToken { required, .. },
            ..
        } => Some(required.0),
        Happening::WriteRejected {
            refusal: Refusal::SequencerInvalid { presented },
            ..
        } => Some(presented.0),
        Happening::SequencerAsked { token, .. } | Happening::SequencerAnswered { token, .. } => {
            Some(token.0)
        }
        _ => None,
    };
    [h.token().map(|t| t.0), required]
}

fn durations(h: &Happening) -> [Option<u64>; 3] {
    let abs = |v: i64| Some(v.unsigned_abs());
    match *h {
        Happening::AskedForLock { ttl, .. }
        | Happening::Granted { ttl, .. }
        | Happening::Renewed { ttl, .. } => [Some(ttl.0), None, None],
        Happening::ReadReturned { work, .. }
        | Happening::GotLock {
            next: NextStep::Work(work),
            ..
        }
        | Happening::Started {
            next: NextStep::Work(work),
            ..
        } => [Some(work.0), None, None],
        Happening::LeaseChecked {
            time_left,
            margin,
            write_in,
            ..
        } => [abs(time_left), Some(margin.0), Some(write_in.0)],
        Happening::WriteSkipped {
            time_left, margin, ..
        } => [time_left.and_then(abs), Some(margin.0), None],
        Happening::WriteSent { checked, .. } => [checked.and_then(abs), None, None],
        Happening::RedlockDecided {
            elapsed, validity, ..
        } => [abs(elapsed), abs(validity), None],
        Happening::Paused { for_ms, .. } => [for_ms.map(|m| m.0), None, None],
        Happening::Resumed { paused_for, .. } => [Some(paused_for.0), None, None],
        Happening::ClockJumped { by_ms, .. } => [abs(by_ms), None, None],
        _ => [None; 3],
    }
}

fn time_left(h: &Happening) -> Option<u64> {
    match *h {
        Happening::LeaseChecked { time_left, .. } => Some(time_left.unsigned_abs()),
        Happening::WriteSkipped { time_left, .. } => time_left.map(i64::unsigned_abs),
        Happening::WriteSent { checked, .. } => checked.map(i64::unsigned_abs),
        _ => None,
    }
}

fn value(h: &Happening) -> Option<i64> {
    match *h {
        Happening::ReadServed { value, .. }
        | Happening::ReadReturned { value, .. }
        | Happening::WriteSent { value, .. }
        | Happening::WriteAccepted { value, .. } => Some(value),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_phrases_are_read_and_nothing_else() {
        let names = ["client-a", "client-b"];
        assert_eq!(
            extract(
                "client-b holds the lock with tokens 33 and 34, revision 2; at 1007 ms it waits 300 ms and reads value 0. About 9.8 s.",
                &names
            ),
            [
                Claim::Holder("client-b".to_owned()),
                Claim::Token(33),
                Claim::Token(34),
                Claim::Token(2),
                Claim::Moment(1007),
                Claim::Duration(300),
                Claim::Value(0),
            ]
        );
        assert!(extract("client-c holds the lock; a token of trust", &names).is_empty());
    }
}
