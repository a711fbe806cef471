//! A recorded history (`lockstep_sim::story::recorded`) as the page shows it: its moments in
//! time order with their words ([`events`]), its verdicts, and its timeline's layout
//! ([`layout`]), computed once when it is opened; beside the simulation of its scenario
//! ([`side_by_side`]); and which built-in scenarios have a recording shipped with the site
//! ([`catalogue`]).
//!
//! What this module must not do: fetch or parse files (the app gives it a parsed history), or
//! judge anything itself (the verdicts are `recorded_verdicts`').

pub mod catalogue;
pub mod events;
pub mod layout;
pub mod side_by_side;

use crate::layout::Layout;
use events::RecordedEvent;
use lockstep_sim::analysis::recorded_verdicts::{Breach, judge};
use lockstep_sim::story::recorded::RecordedHistory;
use std::rc::Rc;

/// A recorded history, ready to show.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedRun {
    pub history: RecordedHistory,
    pub events: Vec<RecordedEvent>,
    pub breaches: Vec<Breach>,
    /// Shared, so that a view holding it is compared, not drawn again, on every step.
    pub layout: Rc<Layout>,
}

impl RecordedRun {
    pub fn of(history: RecordedHistory) -> RecordedRun {
        RecordedRun::with_lanes_first(history, &[])
    }

    /// The run, its lanes named in `first` first, in that order (the simulation's lanes, when
    /// it is drawn beside one).
    pub fn with_lanes_first(history: RecordedHistory, first: &[String]) -> RecordedRun {
        let events = events::events(&history);
        let breaches = judge(&history);
        let layout = layout::layout(&history, &events, &breaches, first);
        RecordedRun {
            history,
            events,
            breaches,
            layout: Rc::new(layout),
        }
    }

    /// How many of its moments have happened by `now_ms`.
    pub fn position_at(&self, now_ms: u64) -> usize {
        self.events.partition_point(|e| e.at_ms <= now_ms)
    }

    /// The breaches that have happened by `now_ms`.
    pub fn breaches_by(&self, now_ms: u64) -> impl Iterator<Item = &Breach> {
        self.breaches.iter().filter(move |b| b.at_ms <= now_ms)
    }

    /// The moments at the latest time by `now_ms` (several can share a millisecond), in words.
    pub fn latest_words(&self, now_ms: u64) -> Option<String> {
        let shown = &self.events[..self.position_at(now_ms)];
        let last = shown.last()?.at_ms;
        let words: Vec<String> = shown
            .iter()
            .filter(|e| e.at_ms == last)
            .map(|event| events::words(&self.history, event))
            .collect();
        Some(format!("t = {} ms. {}.", last, words.join(". ")))
    }
}

#[cfg(test)]
mod agreement_tests;
#[cfg(test)]
mod tests;
