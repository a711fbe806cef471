//! The events of a run that end the guided start's stages, read from its trace: the pause that
//! makes the zombie, the other client's accepted write, and the zombie's own write — accepted
//! although stale (fencing off) or refused for its old token (fencing on).

use lockstep_sim::engine::trace::TraceEvent;
use lockstep_sim::vocabulary::happening::Happening;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::vocabulary::message::Refusal;

/// How the zombie's write landed at the resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// Accepted with a stale token: fencing was off.
    Accepted,
    /// Refused because its token was lower than one the resource had seen.
    Refused,
}

/// The zombie's write: the index of its event in the trace and how it landed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZombieWrite {
    pub event: usize,
    pub landing: Landing,
}

impl ZombieWrite {
    /// How many events must be shown for this write to be on screen.
    pub fn shown_at(self) -> usize {
        self.event + 1
    }
}

/// The run's events the guided start waits for, by index in the trace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Milestones {
    /// The first pause: the client that will wake up as a zombie stops.
    pub pause: Option<usize>,
    /// The first write the resource accepted that broke no invariant: the new holder's.
    pub honest_write: Option<usize>,
    /// The stale write: accepted although stale, or refused for its old token.
    pub zombie_write: Option<ZombieWrite>,
}

impl Milestones {
    pub fn of(trace: &[TraceEvent]) -> Milestones {
        let find = |wanted: &dyn Fn(&TraceEvent) -> bool| trace.iter().position(wanted);
        Milestones {
            pause: find(&|e| matches!(e.happening, Happening::Paused { .. })),
            honest_write: find(&|e| {
                matches!(e.happening, Happening::WriteAccepted { .. }) && e.broke.is_empty()
            }),
            zombie_write: trace
                .iter()
                .enumerate()
                .find_map(|(event, e)| landing(e).map(|landing| ZombieWrite { event, landing })),
        }
    }
}

/// How `event` landed, when it is a stale write accepted or refused for its token.
fn landing(event: &TraceEvent) -> Option<Landing> {
    match event.happening {
        Happening::WriteAccepted { .. } if event.broke.contains(Invariant::NoStaleWrite) => {
            Some(Landing::Accepted)
        }
        Happening::WriteRejected {
            refusal: Refusal::StaleToken { .. },
            ..
        } => Some(Landing::Refused),
        _ => None,
    }
}
