//! Short words for states and marks, shared by the timeline, the inspector and the narration.
//! They name what the simulation reports; they must not decide anything.

use crate::layout::refusal_text;
use crate::layout::{Layout, MarkKind, SpanKind};
use lockstep_sim::engine::sim::{Node, Process, Sim};
use lockstep_sim::engine::trace::TraceEvent;
use lockstep_sim::models::client::{Client, ClientState};
use lockstep_sim::models::lock_service::NodeRole;
use lockstep_sim::vocabulary::invariant::Concern;
use lockstep_sim::world::ids::NodeId;
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

#[cfg(test)]
mod tests {
    use super::violation_count;
    use crate::run::Run;
    use lockstep_sim::scenario::catalogue;

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
}
