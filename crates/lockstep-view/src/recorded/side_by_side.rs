//! A recorded real run beside the simulation of the scenario it plays, stepped by time as the
//! compare view steps two runs: one clock, each run showing what it had done by then. Either
//! side can be missing its partner: a history converted from another system's logs names no
//! scenario, and is shown alone.
//!
//! Pure: the app gives it a parsed history and, when the history names a built-in scenario,
//! that scenario.

use super::RecordedRun;
use crate::layout::Layout;
use crate::run::Run;
use lockstep_sim::Scenario;
use lockstep_sim::analysis::recorded_verdicts::{Breach, JUDGED};
use lockstep_sim::scenario::error::ScenarioError;
use lockstep_sim::story::recorded::RecordedHistory;
use lockstep_sim::vocabulary::invariant::{Invariant, InvariantSet};
use std::rc::Rc;

/// The simulated run of the recording's scenario, with its timeline's layout.
#[derive(Clone, Debug)]
pub struct Simulated {
    pub run: Run,
    /// Shared, so that a view holding it is compared, not drawn again, on every step.
    pub layout: Rc<Layout>,
}

#[derive(Clone, Debug)]
pub struct SideBySide {
    pub recorded: RecordedRun,
    pub simulated: Option<Simulated>,
    /// Every time either run has a moment at, in order, once each: the stops of Step.
    pub times: Vec<u64>,
}

/// One invariant's verdict on both sides, by some time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerdictRow {
    pub invariant: Invariant,
    /// Whether the simulation had broken it (`None`: no simulation beside).
    pub simulated: Option<bool>,
    /// The recording's breach, if it had happened.
    pub recorded: Option<Breach>,
}

/// How the two runs' verdicts compare by some time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// The same invariants broken so far.
    SoFar,
    /// Not the same yet, and the same by both runs' ends: one run has got there first, as real
    /// servers' times are not the model's.
    OnlyInTime,
    /// Not the same even at the end: one of them teaches something wrong.
    Disagree,
}

/// Whether every row's two verdicts are the same (a row with no simulation agrees).
fn rows_agree(rows: &[VerdictRow]) -> bool {
    rows.iter().all(|r| {
        r.simulated
            .is_none_or(|broken| broken == r.recorded.is_some())
    })
}

impl SideBySide {
    /// How the verdicts by `now_ms` compare, and if they differ, whether they still do at the
    /// end; `None` with no simulation beside.
    pub fn agreement_by(&self, now_ms: u64) -> Option<Agreement> {
        self.simulated.as_ref()?;
        Some(if rows_agree(&self.verdicts_by(now_ms)) {
            Agreement::SoFar
        } else if rows_agree(&self.verdicts_by(u64::MAX)) {
            Agreement::OnlyInTime
        } else {
            Agreement::Disagree
        })
    }

    /// The recording, beside the simulation of `scenario` (the one it names) when given.
    pub fn of(
        history: RecordedHistory,
        scenario: Option<&Scenario>,
    ) -> Result<SideBySide, ScenarioError> {
        let simulated = scenario
            .map(|s| {
                Run::record(s, s.seed, &[]).map(|run| {
                    let layout = Rc::new(Layout::of(&run));
                    Simulated { run, layout }
                })
            })
            .transpose()?;
        // The same names in the same order on both timelines, whichever client asked first.
        let order: Vec<String> = simulated
            .iter()
            .flat_map(|s| s.layout.lanes.iter().map(|l| l.name.clone()))
            .collect();
        let recorded = RecordedRun::with_lanes_first(history, &order);
        let mut times: Vec<u64> = recorded.events.iter().map(|e| e.at_ms).collect();
        if let Some(simulated) = &simulated {
            times.extend(simulated.run.sim.trace().iter().map(|e| e.time.0));
        }
        times.sort_unstable();
        times.dedup();
        Ok(SideBySide {
            recorded,
            simulated,
            times,
        })
    }

    /// The time of Step number `step` (0: before anything), clamped to the last.
    pub fn time_at(&self, step: usize) -> u64 {
        step.checked_sub(1)
            .and_then(|i| self.times.get(i.min(self.times.len().saturating_sub(1))))
            .copied()
            .unwrap_or(0)
    }

    /// How many steps there are after the start.
    pub fn steps(&self) -> usize {
        self.times.len()
    }

    /// How many of the simulation's events had happened by `now_ms`.
    pub fn simulated_position(&self, now_ms: u64) -> usize {
        self.simulated.as_ref().map_or(0, |s| {
            s.run.sim.trace().partition_point(|e| e.time.0 <= now_ms)
        })
    }

    /// Each judged invariant on both sides, as broken by `now_ms` (a state invariant that held
    /// again still counts: it broke).
    pub fn verdicts_by(&self, now_ms: u64) -> Vec<VerdictRow> {
        let simulated = self.simulated.as_ref().map(|s| {
            s.run
                .sim
                .trace()
                .iter()
                .take_while(|e| e.time.0 <= now_ms)
                .fold(InvariantSet::EMPTY, |set, e| {
                    e.broke.iter().fold(set, InvariantSet::with)
                })
        });
        JUDGED
            .into_iter()
            .map(|invariant| VerdictRow {
                invariant,
                simulated: simulated.map(|set| set.contains(invariant)),
                recorded: self
                    .recorded
                    .breaches_by(now_ms)
                    .find(|b| b.invariant == invariant)
                    .cloned(),
            })
            .collect()
    }
}
