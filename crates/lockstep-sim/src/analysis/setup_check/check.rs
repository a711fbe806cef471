//! The check of one setup: the runs to make (the setup's own and each applicable change's, on
//! the same seeds), how to make one, the two searches, and the report made of them. Who runs
//! the runs is the caller's choice (threads on the command line, workers in a page): each run
//! depends only on its job and seed, and [`SetupCheck::report`] takes them in seed order. It
//! must not read a clock or spawn anything.

use super::candidates::Change;
use super::error::SetupError;
use super::generate::Frame;
use super::judge::{DataHarm, SetupRun, judge_run};
use super::mapping::Mechanism;
use super::report::{Broken, CHECK_REPORT_FORMAT, CheckReport, MeasuredChange, Verdict};
use super::search::{Shortest, shortest};
use super::setup::LockSetup;
use super::words;
use crate::vocabulary::invariant::Invariant;

/// Which runs a job makes: the setup's own, or those of one change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    Setup,
    Change(Change),
}

/// Which seeds a check runs: `first .. first + count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seeds {
    pub first: u64,
    pub count: u64,
}

impl Seeds {
    pub fn iter(self) -> impl Iterator<Item = u64> {
        self.first..self.first.saturating_add(self.count)
    }
}

/// A setup ready to check.
#[derive(Clone, Debug)]
pub struct SetupCheck {
    setup: LockSetup,
    frame: Frame,
    mechanism: Mechanism,
    harm: DataHarm,
    changes: Vec<(Change, Mechanism)>,
}

/// The two searches' results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Searches {
    pub beliefs: Shortest,
    pub data: Shortest,
}

impl SetupCheck {
    /// Validates the setup and the scenario it generates.
    pub fn new(setup: LockSetup) -> Result<SetupCheck, SetupError> {
        setup.validate()?;
        let frame = Frame::of(&setup);
        let mechanism = Mechanism::of(&setup);
        frame
            .scenario(&mechanism, 1)
            .check()
            .map_err(|error| SetupError::Invalid {
                path: "(the runs it generates)",
                reason: error.to_string(),
            })?;
        let changes = Change::ALL
            .into_iter()
            .filter_map(|change| {
                let changed = change.apply(&setup)?;
                let mechanism = Mechanism::of(&changed);
                frame.scenario(&mechanism, 1).check().ok()?;
                Some((change, mechanism))
            })
            .collect();
        Ok(SetupCheck {
            harm: DataHarm::of(&mechanism.access),
            setup,
            frame,
            mechanism,
            changes,
        })
    }

    /// Every job, the setup's own first.
    pub fn jobs(&self) -> Vec<Job> {
        std::iter::once(Job::Setup)
            .chain(self.changes.iter().map(|(change, _)| Job::Change(*change)))
            .collect()
    }

    fn mechanism(&self, job: Job) -> &Mechanism {
        match job {
            Job::Setup => &self.mechanism,
            Job::Change(change) => self
                .changes
                .iter()
                .find(|(c, _)| *c == change)
                .map_or(&self.mechanism, |(_, mechanism)| mechanism),
        }
    }

    /// The scenario of one run: what the report's seeds open in the playground.
    pub fn scenario(&self, job: Job, seed: u64) -> crate::scenario::types::Scenario {
        self.frame.scenario(self.mechanism(job), seed)
    }

    /// Makes and judges one run.
    pub fn run(&self, job: Job, seed: u64) -> SetupRun {
        judge_run(&self.scenario(job, seed), self.harm)
    }

    /// The shortest runs that break each kind of promise.
    pub fn searches(&self) -> Searches {
        Searches {
            beliefs: shortest(&self.frame, &self.mechanism, Invariant::OneBeliever),
            data: shortest(&self.frame, &self.mechanism, self.harm.invariant()),
        }
    }

    /// The whole check, one run after another.
    pub fn check(&self, seeds: Seeds) -> CheckReport {
        let runs: Vec<Vec<SetupRun>> = self
            .jobs()
            .into_iter()
            .map(|job| seeds.iter().map(|seed| self.run(job, seed)).collect())
            .collect();
        self.report(seeds, &runs, self.searches())
    }

    /// The report, from each job's runs (in [`SetupCheck::jobs`]' order, each in seed order).
    pub fn report(&self, seeds: Seeds, runs: &[Vec<SetupRun>], searches: Searches) -> CheckReport {
        let own = runs.first().map_or(&[][..], Vec::as_slice);
        let beliefs = Broken::count(own, |run| run.beliefs_overlapped);
        let data = Broken::count(own, |run| run.data_harmed);
        let found = |shortest: &Shortest| matches!(shortest, Shortest::Found { .. });
        let data_breaks = data.runs > 0 || found(&searches.data);
        let verdict = if data_breaks && self.mechanism.fences() {
            Verdict::DataLostInFencingGap
        } else if data_breaks {
            Verdict::DataLost
        } else if beliefs.runs > 0 || found(&searches.beliefs) {
            Verdict::BeliefsOverlap
        } else {
            Verdict::Intact
        };
        let changes = self.measure(runs, verdict);
        let no_single_change_suffices =
            verdict != Verdict::Intact && !changes.iter().any(|c| c.recommended);
        let mut report = CheckReport {
            format: CHECK_REPORT_FORMAT,
            setup: self.setup.clone(),
            runs: seeds.count,
            first_seed: seeds.first,
            run_ms: self.frame.duration,
            verdict,
            headline: String::new(),
            harm: self.harm,
            beliefs,
            data,
            stale_writes: Broken::count(own, |run| run.stale_write),
            unjudged: Broken::count(own, |run| run.unjudged).runs,
            shortest_beliefs: searches.beliefs,
            shortest_data: searches.data,
            lessons: Vec::new(),
            changes,
            no_single_change_suffices,
            cannot_see: words::cannot_see(&self.setup, &self.frame),
        };
        report.headline = words::headline(&report);
        report.lessons = words::lessons(&report);
        report
    }

    /// Each change's runs against the setup's: recommended when the failure the verdict names
    /// (the data's, else the beliefs') is in some of the setup's runs and in none of the change's.
    fn measure(&self, runs: &[Vec<SetupRun>], verdict: Verdict) -> Vec<MeasuredChange> {
        let own = runs.first().map_or(&[][..], Vec::as_slice);
        let count = |runs: &[SetupRun], data: bool| {
            Broken::count(runs, |run| {
                if data {
                    run.data_harmed
                } else {
                    run.beliefs_overlapped
                }
            })
            .runs
        };
        self.changes
            .iter()
            .zip(runs.iter().skip(1))
            .map(|((change, _), after)| {
                let (data_before, data_after) = (count(own, true), count(after, true));
                let (beliefs_before, beliefs_after) = (count(own, false), count(after, false));
                let recommended = match verdict {
                    Verdict::DataLost | Verdict::DataLostInFencingGap => {
                        data_before > 0 && data_after == 0
                    }
                    Verdict::BeliefsOverlap => beliefs_before > 0 && beliefs_after == 0,
                    Verdict::Intact => false,
                };
                MeasuredChange {
                    change: *change,
                    label: change.label(&self.setup),
                    data_before,
                    data_after,
                    beliefs_before,
                    beliefs_after,
                    recommended,
                }
            })
            .collect()
    }
}
