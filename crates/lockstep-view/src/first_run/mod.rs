//! The guided start a first visit lands on: S1 with fencing off at event 0, Step until the
//! zombie's stale write is accepted and an update is lost, then fencing on and the same write
//! refused. Pure: which scenario and lesson it uses, when it opens (`opens`), the events that
//! end its stages read from the run (`milestones`), and what each stage's card says and offers
//! (`script`). The app draws the card and keeps the local-storage mark; it must not decide any
//! of this itself, and this module must not touch the browser.

mod milestones;
mod script;

use crate::state::{Comparison, Moment, Origin};
use lockstep_sim::scenario::types::Scenario;

pub use milestones::{Landing, Milestones, ZombieWrite};
pub use script::{Card, Choice, Pointer, Stage, card, stage};

/// The scenario the guided start runs: S1, the GC pause past the lease's end, fencing off.
pub const SCENARIO: &str = "s1-gc-pause-unfenced";

/// Where the guided start stands the run when it opens: before the first event.
pub const START: usize = 0;

/// The lesson "Continue with the lesson" opens: the first in the lessons' list.
pub const FIRST_LESSON: &str = "not-a-mutex";

/// The moment the guided start opens S1 at, once its file has loaded: fencing as the file has
/// it (off), no interventions of the user's, before the first event.
pub fn moment(scenario: Scenario) -> Moment {
    Moment {
        origin: Origin::BuiltIn(SCENARIO),
        seed: scenario.seed,
        scenario,
        log: Vec::new(),
        position: Some(START),
        compare: Comparison::Off,
    }
}

/// Whether a visit starts with the guided start: only a first visit (nothing stored says the
/// visitor has been here) that arrived without an address fragment — a shared link, any page's
/// address, always opens what it names.
pub fn opens(fragment: &str, visited: bool) -> bool {
    fragment.is_empty() && !visited
}

#[cfg(test)]
mod tests;
