//! One lab run over many seeds, shared between workers: hands out small batches of seeds,
//! takes the batches' runs back in whatever order the workers finish them, and adds them to
//! the report strictly in seed order, so the report never depends on which worker was faster.
//!
//! Pure: no browser, no clock; the app's `lab::workers` does the sending.

use crate::lab::tally::Tally;
use crate::lab::worker_protocol::SeedRange;
use crate::link::lab::LabSpec;
use lockstep_sim::analysis::chaos::{Broken, ChaosReport, ChaosRun, ReportError};
use lockstep_sim::vocabulary::invariant::Concern;
use std::collections::BTreeMap;

/// Seeds per request: small, so Stop is prompt and progress is live, and large enough that a
/// message's cost is nothing beside the runs' (a run takes a few ms in the page).
pub const BATCH: u64 = 20;

/// A violating run: its seed, every invariant it broke, each with where it first broke (where
/// the playground opens), where the article's check first found two accepted writers at once
/// (a trace index), and whether our data check found increments lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub seed: u64,
    pub broken: Vec<Broken>,
    pub two_writers_at: Option<usize>,
    pub data_lost: bool,
}

impl Violation {
    /// The run's first violation.
    pub fn first(&self) -> Option<Broken> {
        self.broken.iter().min_by_key(|b| b.first_event).copied()
    }

    /// Whether the run harmed the data (as the headline counts: a data invariant broken, two
    /// accepted writers at once, or increments lost), not only the lock's promises.
    pub fn harms_data(&self) -> bool {
        self.two_writers_at.is_some() || self.data_lost || self.first_harm().is_some()
    }

    /// The first data invariant the run broke.
    pub fn first_harm(&self) -> Option<Broken> {
        self.broken
            .iter()
            .filter(|b| b.invariant.concern() == Concern::Data)
            .min_by_key(|b| b.first_event)
            .copied()
    }
}

/// A lab run under way (or finished, or stopped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabRun {
    pub spec: LabSpec,
    /// The next seed no worker has been given yet.
    next: u64,
    /// Batches that came back before an earlier one, by their first seed.
    waiting: BTreeMap<u64, Vec<ChaosRun>>,
    /// The seed the report expects next.
    expected: u64,
    pub report: ChaosReport,
    pub violations: Vec<Violation>,
    /// The runs so far by what they did to the data: the lab's headline.
    pub tally: Tally,
}

impl LabRun {
    pub fn new(spec: LabSpec) -> LabRun {
        LabRun {
            next: spec.first_seed,
            expected: spec.first_seed,
            waiting: BTreeMap::new(),
            report: ChaosReport::new(spec.settings, spec.first_seed),
            violations: Vec::new(),
            tally: Tally::default(),
            spec,
        }
    }

    fn end(&self) -> u64 {
        self.spec.first_seed.saturating_add(self.spec.runs.0)
    }

    /// The next batch to give a worker, if any seeds are left.
    pub fn next_batch(&mut self) -> Option<SeedRange> {
        let end = self.end();
        if self.next >= end {
            return None;
        }
        let range = SeedRange {
            first: self.next,
            end: self.next.saturating_add(BATCH).min(end),
        };
        self.next = range.end;
        Some(range)
    }

    /// Takes a batch's runs (in seed order, as a worker answers) and adds every run now in
    /// turn to the report. A run the report refuses (out of order: a worker answered seeds it
    /// was not asked for) is an error, and nothing after it is added.
    pub fn accept(&mut self, runs: Vec<ChaosRun>) -> Result<(), ReportError> {
        let Some(first) = runs.first().map(|r| r.seed) else {
            return Ok(());
        };
        self.waiting.insert(first, runs);
        while let Some(runs) = self.waiting.remove(&self.expected) {
            for run in &runs {
                self.report.add(run)?;
                self.tally.add(run);
                let two_writers_at = run.writers.two_at_once().map(|(event, _)| event);
                if !run.broken.is_empty() || two_writers_at.is_some() || run.data.is_lost() {
                    self.violations.push(Violation {
                        seed: run.seed,
                        broken: run.broken.clone(),
                        two_writers_at,
                        data_lost: run.data.is_lost(),
                    });
                }
            }
            self.expected = self.expected.saturating_add(runs.len() as u64);
        }
        Ok(())
    }

    /// Runs added to the report so far.
    pub fn done(&self) -> u64 {
        self.report.runs
    }

    pub fn finished(&self) -> bool {
        self.done() >= self.spec.runs.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::lab::RunCount;
    use lockstep_sim::analysis::chaos::{ChaosSettings, run_chaos};
    use lockstep_sim::models::resource::Fencing;
    use lockstep_sim::world::time::Millis;

    /// The article's test cut to 20 s of virtual time: a debug build runs dozens in a second.
    fn spec(runs: u64) -> LabSpec {
        LabSpec {
            settings: ChaosSettings {
                duration: Millis(20_000),
                ..ChaosSettings::verification_test(Fencing::Off)
            },
            runs: RunCount(runs),
            first_seed: 1,
        }
    }

    fn batches(run: &mut LabRun) -> Vec<(SeedRange, Vec<ChaosRun>)> {
        let settings = run.spec.settings;
        std::iter::from_fn(|| run.next_batch())
            .map(|range| {
                (
                    range,
                    range.seeds().map(|s| run_chaos(&settings, s)).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn batches_cover_the_seeds_once_and_stop() {
        let mut run = LabRun::new(spec(45));
        let ranges: Vec<SeedRange> = std::iter::from_fn(|| run.next_batch()).collect();
        assert_eq!(
            ranges,
            [
                SeedRange { first: 1, end: 21 },
                SeedRange { first: 21, end: 41 },
                SeedRange { first: 41, end: 46 },
            ]
        );
        assert_eq!(run.next_batch(), None);
    }

    #[test]
    fn the_report_is_the_same_whatever_order_the_batches_come_back_in() {
        let mut in_order = LabRun::new(spec(60));
        let done = batches(&mut in_order);
        for (_, runs) in done.clone() {
            in_order.accept(runs).expect("in order");
        }
        let mut reversed = LabRun::new(spec(60));
        let _ = batches(&mut reversed);
        for (i, (_, runs)) in done.into_iter().rev().enumerate() {
            reversed.accept(runs).expect("merged in order");
            if i < 2 {
                assert_eq!(reversed.done(), 0, "nothing added before seed 1's batch");
            }
        }
        assert!(in_order.finished() && reversed.finished());
        assert_eq!(in_order.report, reversed.report);
        assert_eq!(in_order.violations, reversed.violations);
        let seeds: Vec<u64> = in_order.violations.iter().map(|v| v.seed).collect();
        let reported: Vec<u64> = in_order.report.violating.iter().map(|v| v.seed).collect();
        assert_eq!(seeds, reported);
        assert!(
            !seeds.is_empty(),
            "fencing off breaks something in 60 runs: the order is tested on real data"
        );
    }

    /// The seed list's two groups are the headline's: a violation harms the data exactly when
    /// the tally counts its run as harmed.
    #[test]
    fn a_violation_harms_the_data_as_the_headline_counts_it() {
        let mut run = LabRun::new(LabSpec {
            settings: ChaosSettings {
                fencing: Fencing::On,
                ..spec(0).settings
            },
            ..spec(60)
        });
        for (_, runs) in batches(&mut run) {
            run.accept(runs).expect("in order");
        }
        let harmed = run.violations.iter().filter(|v| v.harms_data()).count() as u64;
        assert_eq!(harmed, run.tally.data_harmed);
        let beliefs = run.violations.len() as u64 - harmed;
        // An unjudged run is in the list only if it broke one of the lock's promises.
        let tally = run.tally;
        assert!(beliefs >= tally.lock_only && beliefs <= tally.lock_only + tally.unjudged);
        assert!(
            harmed > 0 && beliefs > 0,
            "both groups on real data: {:?}",
            run.tally
        );
        for violation in run.violations.iter().filter(|v| v.harms_data()) {
            if let Some(harm) = violation.first_harm() {
                assert_eq!(harm.invariant.concern(), Concern::Data);
            }
        }
    }
}
