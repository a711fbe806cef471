//! The few likely actions for one node, ranked, for the popover at its lane name or stage box:
//! the same interventions the full Act panel offers (`pages/playground/actions/` in the app), fewer
//! of them and in fewer words. The panel stays the place for settings (a pause's length, a clock
//! jump, which link to cut one way) and for a freeze until resumed: a quick pause always ends,
//! as a GC pause does, so that what the paused node does on waking is part of the run.

use crate::state::{Action, Playground};
use lockstep_sim::engine::sim::Process;
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::types::{LockServiceSpec, Scenario};
use lockstep_sim::story::numbers::thousands;
use lockstep_sim::vocabulary::happening::Direction;
use lockstep_sim::world::ids::NodeId;
use lockstep_sim::world::intervention::Action as Act;
use lockstep_sim::world::time::Millis;

/// At most this many actions in the popover: more is the full panel's job.
pub const MOST: usize = 4;

/// Which action a quick action is: its test hook and its place in the ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuickKind {
    Pause,
    Resume,
    Crash,
    Restart,
    Cut,
    Failover,
    Expire,
    Fencing,
}

impl QuickKind {
    /// The button's `data-kind`.
    pub fn kind_name(self) -> &'static str {
        match self {
            QuickKind::Pause => "quick-pause",
            QuickKind::Resume => "quick-resume",
            QuickKind::Crash => "quick-crash",
            QuickKind::Restart => "quick-restart",
            QuickKind::Cut => "quick-cut",
            QuickKind::Failover => "quick-failover",
            QuickKind::Expire => "quick-expire",
            QuickKind::Fencing => "quick-fencing",
        }
    }
}

/// One action of the popover: its kind, its words, and what it dispatches.
#[derive(Clone, Debug, PartialEq)]
pub struct QuickAction {
    pub kind: QuickKind,
    pub label: String,
    pub action: Action,
}

/// The popover's heading and its actions for `node` as it is at the shown moment, most likely
/// first; empty when nothing is open or the node is not in the cast.
pub fn quick_actions(playground: &Playground, node: NodeId) -> (String, Vec<QuickAction>) {
    let sim = playground.sim();
    let cast = sim.cast();
    if playground.scenario().is_none() || node.index() >= cast.len() {
        return (String::new(), Vec::new());
    }
    let name = cast.name(node).to_owned();
    let process = sim.slot(node).map_or(Process::Running, |s| s.process);
    let pause = playground
        .scenario()
        .and_then(|scenario| GcPause::of(scenario, &name));
    let mut actions = if cast.is_client(node) {
        let front = cast.services().next().map(|s| cast.name(s).to_owned());
        let lone = cast.services().count() == 1;
        let mut actions = pause_or_resume(&name, process, pause);
        actions.push(crash_or_restart(&name, process));
        actions.extend(front.map(|front| cut(&name, front, lone)));
        actions
    } else if cast.is_service(node) {
        let mut actions = vec![crash_or_restart(&name, process)];
        if matches!(
            playground.scenario().map(|s| &s.lock_service),
            Some(LockServiceSpec::ReplicatedCache { .. })
        ) {
            actions.push(quick(
                QuickKind::Failover,
                "Fail over to the replica",
                Act::Failover {},
            ));
        }
        actions.push(quick(
            QuickKind::Expire,
            "Expire the lease now",
            Act::ForceExpire {},
        ));
        actions.extend(pause_or_resume(&name, process, pause));
        actions
    } else {
        let mut actions = vec![crash_or_restart(&name, process)];
        actions.extend(playground.fencing().map(fencing_switch));
        actions
    };
    actions.truncate(MOST);
    (name, actions)
}

fn quick(kind: QuickKind, label: &str, act: Act<String>) -> QuickAction {
    QuickAction {
        kind,
        label: label.to_owned(),
        action: Action::Intervene(act),
    }
}

/// The quick pause's length: twice the lease it must outlive, so that the lease ends at the
/// service while the node is stopped and the node wakes into a world that moved on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GcPause {
    /// A client's: twice its own lease.
    TwiceItsLease(Millis),
    /// A service node's: twice the longest lease a client asks for.
    TwiceTheLongestLease(Millis),
}

impl GcPause {
    /// The pause for the node named `name`; `None` for a service node when no client takes a
    /// lease.
    fn of(scenario: &Scenario, name: &str) -> Option<GcPause> {
        let twice = |ttl: Millis| Millis(ttl.0.saturating_mul(2));
        match scenario.clients.iter().find(|c| c.name == name) {
            Some(client) => Some(GcPause::TwiceItsLease(twice(client.ttl_ms))),
            None => scenario
                .clients
                .iter()
                .map(|c| c.ttl_ms)
                .max()
                .map(|ttl| GcPause::TwiceTheLongestLease(twice(ttl))),
        }
    }

    fn length(self) -> Millis {
        match self {
            GcPause::TwiceItsLease(ms) | GcPause::TwiceTheLongestLease(ms) => ms,
        }
    }

    fn label(self) -> String {
        let ms = thousands(self.length().0);
        match self {
            GcPause::TwiceItsLease(_) => {
                format!("Pause it for {ms} ms (a GC pause twice its lease)")
            }
            GcPause::TwiceTheLongestLease(_) => {
                format!("Pause it for {ms} ms (twice the longest lease)")
            }
        }
    }
}

/// A running process can be paused for `pause` (a GC pause ends by itself); a paused one
/// resumed; a crashed one neither.
fn pause_or_resume(name: &str, process: Process, pause: Option<GcPause>) -> Vec<QuickAction> {
    let node = name.to_owned();
    match process {
        Process::Running => pause
            .map(|pause| QuickAction {
                kind: QuickKind::Pause,
                label: pause.label(),
                action: Action::Intervene(Act::Pause {
                    node,
                    for_ms: Some(pause.length()),
                }),
            })
            .into_iter()
            .collect(),
        Process::Paused { .. } => vec![quick(QuickKind::Resume, "Resume it", Act::Resume { node })],
        Process::Crashed { .. } => Vec::new(),
    }
}

fn crash_or_restart(name: &str, process: Process) -> QuickAction {
    let node = name.to_owned();
    match process {
        Process::Crashed { .. } => quick(QuickKind::Restart, "Restart it", Act::Restart { node }),
        Process::Running | Process::Paused { .. } => {
            quick(QuickKind::Crash, "Crash it", Act::Crash { node })
        }
    }
}

/// Cut a client's link to the lock service (its first node, when the service has several).
fn cut(client: &str, front: String, lone: bool) -> QuickAction {
    let label = if lone {
        "Cut it off from the lock service".to_owned()
    } else {
        format!("Cut its link to {front}")
    };
    QuickAction {
        kind: QuickKind::Cut,
        label,
        action: Action::Intervene(Act::Partition {
            from: client.to_owned(),
            to: front,
            direction: Direction::Both,
        }),
    }
}

/// Switch the resource's fencing the other way.
fn fencing_switch(fencing: Fencing) -> QuickAction {
    let (label, next) = match fencing {
        Fencing::Off => ("Switch fencing on", Fencing::On),
        Fencing::On | Fencing::CheckAndSet | Fencing::Sequencer => {
            ("Switch fencing off", Fencing::Off)
        }
    };
    QuickAction {
        kind: QuickKind::Fencing,
        label: label.to_owned(),
        action: Action::SetFencing(next),
    }
}
