//! Short words for states and marks, shared by the timeline, the inspector and the narration.
//! They name what the simulation reports; they must not decide anything.

use crate::layout::refusal_text;
use crate::layout::{Layout, MarkKind, SpanKind};
use lockstep_sim::engine::sim::{Node, Process, Sim};
use lockstep_sim::engine::trace::TraceEvent;
use lockstep_sim::models::client::{Client, ClientState, SafetyClock};
use lockstep_sim::models::lock_service::NodeRole;
use lockstep_sim::story::numbers::thousands;
use lockstep_sim::vocabulary::invariant::{Concern, Invariant, InvariantSet};
use lockstep_sim::world::ids::NodeId;
use lockstep_sim::world::time::LocalTime;
use lockstep_sim::world::token::FencingToken;

pub fn token_text(token: Option<FencingToken>, none: &str) -> String {
    token.map_or_else(|| none.to_owned(), |t| t.0.to_string())
}

pub fn process_word(process: Process) -> &'static str {
    match process {
        Process::Running => "running",
        Process::Paused { .. } => "paused",
        Process::Crashed { .. } => "crashed",
    }
}

/// A service node's part in its group in one word; a lone node has none.
pub fn role_word(role: NodeRole) -> Option<&'static str> {
    match role {
        NodeRole::Alone => None,
        NodeRole::Primary => Some("primary"),
        NodeRole::Replica => Some("replica"),
        NodeRole::Leader { .. } => Some("leader"),
        NodeRole::Follower { .. } => Some("follower"),
        NodeRole::Candidate { .. } => Some("candidate"),
    }
}

pub fn client_state_word(client: &Client) -> &'static str {
    match client.state {
        ClientState::NotStarted => "not started",
        ClientState::Acquiring { .. } => "acquiring",
        ClientState::Backoff => "waiting to retry",
        ClientState::Reading => "reading",
        ClientState::Working { .. } => "working",
        ClientState::AboutToWrite { .. } => "about to write",
        ClientState::Writing { .. } => "writing",
        ClientState::Releasing { .. } => "releasing",
        ClientState::Finished { .. } => "finished",
        ClientState::Crashed => "crashed",
    }
}

/// The badge beside a lane's name: a paused or crashed process first, then a client's belief.
pub fn lane_badge(sim: &Sim, node: NodeId) -> &'static str {
    let Some(slot) = sim.slot(node) else {
        return "";
    };
    match (slot.process, &slot.node) {
        (Process::Paused { .. }, _) => "paused",
        (Process::Crashed { .. }, _) => "crashed",
        (Process::Running, Node::Client(client)) if client.believes_it_holds_the_lock() => {
            "believes it holds"
        }
        (Process::Running, Node::Client(client)) => client_state_word(client),
        (Process::Running, _) => "up",
    }
}

/// The machine name of a mark's kind, as test hooks and the trace name it.
pub fn mark_kind(kind: MarkKind) -> &'static str {
    match kind {
        MarkKind::Accepted { .. } => "write_accepted",
        MarkKind::Stale { .. } => "stale_write",
        MarkKind::LostUpdate { .. } => "lost_update",
        MarkKind::Rejected { .. } => "write_rejected",
        MarkKind::Duplicated => "charged_twice",
        MarkKind::ClockJump { .. } => "clock_jumped",
        MarkKind::Intervention => "intervention",
    }
}

/// A mark in words, for its tooltip and its screen-reader label.
pub fn mark_words(kind: MarkKind) -> String {
    match kind {
        MarkKind::Accepted { token: Some(t) } => format!("Write accepted with token {}", t.0),
        MarkKind::Accepted { token: None } => "Write accepted".to_owned(),
        MarkKind::Stale { token } => format!(
            "Stale write accepted: token {}, though another client was told a newer one",
            token.0
        ),
        MarkKind::LostUpdate { .. } => {
            "Write accepted over updates its writer never read: they are lost".to_owned()
        }
        MarkKind::Rejected {
            refusal: Some(refusal),
        } => format!("Write rejected, {}", refusal_text(refusal)),
        MarkKind::Rejected { refusal: None } => "Write rejected".to_owned(),
        MarkKind::Duplicated => "A request charged twice".to_owned(),
        MarkKind::ClockJump { by_ms } => format!("Clock jumped by {by_ms} ms"),
        MarkKind::Intervention => "An intervention".to_owned(),
    }
}

/// A bar in words, for its tooltip and its screen-reader label: what the lock service grants
/// (the truth) or what a client believes.
pub fn bar_words(kind: SpanKind, layout: &Layout) -> String {
    match kind {
        SpanKind::Lease { holder, token } => {
            let holder = layout.name_of(holder);
            match token {
                Some(t) => format!("Lease held by {holder}, token {}", t.0),
                None => format!("Lease held by {holder}"),
            }
        }
        SpanKind::StoredLease { holder, token } => {
            let holder = layout.name_of(holder);
            format!(
                "Lease of {holder}, token {}, kept in the replicated log: no leader is serving it yet",
                token.0
            )
        }
        SpanKind::Belief { token: Some(t) } => {
            format!("Believes it holds the lock, with token {}", t.0)
        }
        SpanKind::Belief { token: None } => "Believes it holds the lock".to_owned(),
        SpanKind::Overhang => {
            "Belief outlives the lease: no lock service node holds or keeps a lease for it"
                .to_owned()
        }
        SpanKind::Pause => "Paused: handles nothing".to_owned(),
        SpanKind::Crash => "Crashed".to_owned(),
    }
}

/// How many events break an invariant, and of which group: "3 events break an invariant: 2
/// beliefs, 1 data" (an event may break one of each).
pub fn violation_count(trace: &[TraceEvent], violations: &[usize]) -> String {
    let count = |concern: Concern| {
        violations
            .iter()
            .filter_map(|&index| trace.get(index))
            .filter(|event| event.broke.iter().any(|i| i.concern() == concern))
            .count()
    };
    let (lock, data) = (count(Concern::Lock), count(Concern::Data));
    let groups = match (lock, data) {
        (0, 0) => String::new(),
        (_, 0) => ": beliefs".to_owned(),
        (0, _) => ": data".to_owned(),
        (lock, data) => format!(": {lock} on beliefs, {data} on data"),
    };
    match violations.len() {
        0 => "none in this run".to_owned(),
        1 => format!("1 event breaks an invariant{groups}"),
        n => format!("{n} events break an invariant{groups}"),
    }
}

/// The sentence after an event's narration that names the invariants it broke, all in one: two
/// broken at one event are one sentence, not the same sentence twice. `None` when none broke.
pub fn broken_invariants(broke: InvariantSet) -> Option<String> {
    let statements: Vec<&str> = broke.iter().map(Invariant::statement).collect();
    match statements.as_slice() {
        [] => None,
        [one] => Some(format!("This breaks an invariant: {one}.")),
        [earlier @ .., last] => {
            let earlier: Vec<String> = earlier.iter().map(|s| lower_first(s)).collect();
            let count = SEVERAL
                .get(statements.len() - 2)
                .map_or_else(|| statements.len().to_string(), |w| (*w).to_owned());
            Some(format!(
                "This breaks {count} invariants: {}, and {}.",
                earlier.join(", "),
                lower_first(last)
            ))
        }
    }
}

/// How many invariants broke at once, from two up, in words (seven are judged).
const SEVERAL: [&str; 6] = ["two", "three", "four", "five", "six", "seven"];

/// An invariant's statement inside a sentence: its first letter in lower case (no statement
/// begins with a name).
fn lower_first(statement: &str) -> String {
    let mut chars = statement.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_lowercase().chain(chars).collect()
    })
}

/// The inspector's `heldSafely()` line for `client` (named `name`) at `now` on its clock: the
/// answer, then the lease's time left — or how long ago it ended — by whose clock and counted
/// from which of its moments, since the client measures a lease the service counts on its own.
pub fn held_safely_words(client: &Client, name: &str, now: LocalTime) -> String {
    let reading = client.held_safely(now);
    let (Some(left), Some(from)) = (reading.time_left, client.counted_from(reading.measure)) else {
        return "no: it holds no lease".to_owned();
    };
    let answer = if reading.is_safe() { "yes" } else { "no" };
    let time = match left {
        1.. => format!("{} ms left", thousands(left.unsigned_abs())),
        0 => "ends now".to_owned(),
        _ => format!("ended {} ms ago", thousands(left.unsigned_abs())),
    };
    let moment = match reading.measure {
        SafetyClock::FromAcquisition => "when its acquire returned",
        SafetyClock::FromLastRequest => "when it sent the last request the service acknowledged",
    };
    let margin = match reading.margin.0 {
        0 => String::new(),
        ms => format!("; margin {} ms", thousands(ms)),
    };
    format!(
        "{answer}: {time} by {name}'s clock (counted from {} ms, {moment}{margin})",
        signed_thousands(from.0)
    )
}

/// A reading of a clock that may have jumped below zero, grouped by thousands.
fn signed_thousands(value: i64) -> String {
    let grouped = thousands(value.unsigned_abs());
    if value < 0 {
        format!("-{grouped}")
    } else {
        grouped
    }
}

#[cfg(test)]
mod tests {
    use super::{broken_invariants, held_safely_words, violation_count};
    use crate::run::Run;
    use lockstep_sim::scenario::catalogue;
    use lockstep_sim::vocabulary::invariant::{Invariant, InvariantSet};

    fn count(id: &str) -> String {
        let scenario = catalogue::find(id)
            .and_then(|b| b.load().ok())
            .expect("in the catalogue");
        let run = Run::record(&scenario, scenario.seed, &[]).expect("runs");
        violation_count(run.sim.trace(), run.violations())
    }

    #[test]
    fn the_count_says_which_group_broke() {
        assert_eq!(
            count("s2-gc-pause-fenced"),
            "1 event breaks an invariant: beliefs"
        );
        assert!(
            count("s1-gc-pause-unfenced").ends_with(" data"),
            "{}",
            count("s1-gc-pause-unfenced")
        );
    }

    /// client-a's line in S1 at the last event by `at_ms`.
    fn client_a_at(at_ms: u64) -> String {
        let scenario = catalogue::find("s1-gc-pause-unfenced")
            .and_then(|b| b.load().ok())
            .expect("in the catalogue");
        let mut sim = lockstep_sim::engine::sim::Sim::new(&scenario).expect("runs");
        sim.run_through(lockstep_sim::world::time::VirtualTime(at_ms));
        let id = sim.cast().find("client-a").expect("in the cast");
        let slot = sim.slot(id).expect("a slot");
        let lockstep_sim::engine::sim::Node::Client(client) = &slot.node else {
            panic!("client-a is a client");
        };
        held_safely_words(client, "client-a", slot.local_time(sim.now()))
    }

    #[test]
    fn held_safely_says_by_whose_clock_from_when_and_how_long_ago_it_ended() {
        let early = client_a_at(40);
        assert!(
            early.starts_with("yes: ")
                && early.contains(" ms left by client-a's clock (counted from ")
                && early.ends_with(" ms, when its acquire returned)"),
            "{early}"
        );
        let late = client_a_at(2_000);
        assert!(
            late.starts_with("no: ended ") && late.contains(" ms ago by client-a's clock"),
            "{late}"
        );
        assert!(!late.contains("left"), "no negative time left: {late}");
    }

    #[test]
    fn invariants_broken_at_one_event_are_named_in_one_sentence() {
        assert_eq!(broken_invariants(InvariantSet::EMPTY), None);
        let stale = InvariantSet::EMPTY.with(Invariant::NoStaleWrite);
        assert_eq!(
            broken_invariants(stale).as_deref(),
            Some("This breaks an invariant: No write accepted with a stale token.")
        );
        assert_eq!(
            broken_invariants(stale.with(Invariant::OneBeliever)).as_deref(),
            Some(
                "This breaks two invariants: at most one client believes it holds the lock, \
                 and no write accepted with a stale token."
            )
        );
    }
}
