//! The lab's runs kept apart: every run that ended, numbered, newest first on the page, each
//! removable ([`RunHistory`]); and what tells two runs apart, a setting at a time
//! ([`Settings::between`]), for the labels of a comparison.
//!
//! Pure: no browser.

use crate::lab::schedule::LabRun;
use crate::link::lab::LabSpec;
use lockstep_sim::story::numbers::thousands;

/// How many ended runs a page keeps: the oldest goes when one more ends.
pub const KEPT: usize = 8;

/// A run and its number among the runs the page started (from 1, never reused).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Numbered {
    pub number: u64,
    pub run: LabRun,
}

/// The runs that ended (finished, stopped or failed), oldest first, at most [`KEPT`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunHistory {
    runs: Vec<Numbered>,
}

impl RunHistory {
    /// Keeps run `number` as it is now (again, if it was kept before), dropping the oldest
    /// beyond [`KEPT`].
    pub fn keep(&mut self, number: u64, run: &LabRun) {
        let kept = Numbered {
            number,
            run: run.clone(),
        };
        match self.runs.iter_mut().find(|r| r.number == number) {
            Some(old) => *old = kept,
            None => self.runs.push(kept),
        }
        let over = self.runs.len().saturating_sub(KEPT);
        self.runs.drain(..over);
    }

    /// Forgets run `number`.
    pub fn remove(&mut self, number: u64) {
        self.runs.retain(|r| r.number != number);
    }

    /// The runs numbered `first` or later, oldest first: those of one press that queued
    /// several.
    pub fn since(&self, first: u64) -> impl Iterator<Item = &Numbered> {
        self.runs.iter().filter(move |r| r.number >= first)
    }

    /// Every run but run `current`, newest first.
    pub fn earlier(&self, current: u64) -> impl Iterator<Item = &Numbered> {
        self.runs.iter().rev().filter(move |r| r.number != current)
    }
}

/// A run's settings a part at a time: the lock service, the fencing, the clients, the faults,
/// the run's length, and the seeds.
fn parts(spec: &LabSpec) -> Vec<String> {
    let last = spec
        .first_seed
        .saturating_add(spec.runs.0)
        .saturating_sub(1);
    let mut parts = spec.settings.parts().to_vec();
    parts.push(format!(
        "seeds {}–{}",
        thousands(spec.first_seed),
        thousands(last)
    ));
    parts
}

/// A run's settings in one line, with its seeds: "SQL row, fencing on, …, seeds 1–200".
pub fn words(spec: &LabSpec) -> String {
    parts(spec).join(", ")
}

/// What several runs' settings share, and what sets each apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The parts every run has.
    pub shared: Vec<String>,
    /// For each run, in the order given, its parts that not every run has.
    pub apart: Vec<Vec<String>>,
}

impl Settings {
    pub fn between(specs: &[LabSpec]) -> Settings {
        let each: Vec<Vec<String>> = specs.iter().map(parts).collect();
        let everywhere = |part: &String| each.iter().all(|p| p.contains(part));
        let shared = each
            .first()
            .map(|p| p.iter().filter(|part| everywhere(part)).cloned().collect())
            .unwrap_or_default();
        let apart = each
            .iter()
            .map(|p| p.iter().filter(|part| !everywhere(part)).cloned().collect())
            .collect();
        Settings { shared, apart }
    }

    /// Run `index`'s parts that set it apart, in words: "fencing off, seeds 1–200", or "the
    /// same settings".
    pub fn apart_words(&self, index: usize) -> String {
        match self.apart.get(index) {
            Some(parts) if !parts.is_empty() => parts.join(", "),
            _ => "the same settings".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::lab::RunCount;
    use lockstep_sim::analysis::chaos::ChaosSettings;
    use lockstep_sim::models::resource::Fencing;

    fn spec(fencing: Fencing, first_seed: u64) -> LabSpec {
        LabSpec {
            settings: ChaosSettings::verification_test(fencing),
            runs: RunCount(200),
            first_seed,
        }
    }

    #[test]
    fn the_history_keeps_each_run_once_newest_first_and_forgets_on_request() {
        let mut history = RunHistory::default();
        for number in 1..=3 {
            history.keep(number, &LabRun::new(spec(Fencing::On, number)));
        }
        // Kept again (a stopped run kept when the page goes): still once.
        history.keep(3, &LabRun::new(spec(Fencing::Off, 3)));
        let earlier: Vec<u64> = history.earlier(3).map(|r| r.number).collect();
        assert_eq!(earlier, [2, 1]);
        assert_eq!(
            history.since(2).map(|r| r.number).collect::<Vec<_>>(),
            [2, 3]
        );
        history.remove(2);
        assert_eq!(
            history.earlier(4).map(|r| r.number).collect::<Vec<_>>(),
            [3, 1]
        );
        for number in 4..20 {
            history.keep(number, &LabRun::new(spec(Fencing::On, 1)));
        }
        let kept: Vec<u64> = history.earlier(0).map(|r| r.number).collect();
        assert_eq!(kept.len(), KEPT);
        assert_eq!(kept[0], 19, "the newest stays, the oldest went");
    }

    #[test]
    fn two_runs_are_told_apart_by_what_differs() {
        let between = Settings::between(&[spec(Fencing::On, 1), spec(Fencing::Off, 1)]);
        assert_eq!(between.apart_words(0), "fencing on");
        assert_eq!(between.apart_words(1), "fencing off");
        assert_eq!(
            between.shared.join(", "),
            "SQL row, 8 clients, faults: pauses, partitions, lock-service crashes, \
             180 s of virtual time a run, seeds 1–200"
        );
        let seeds = Settings::between(&[spec(Fencing::On, 201), spec(Fencing::On, 1)]);
        assert_eq!(seeds.apart_words(0), "seeds 201–400");
        assert!(words(&spec(Fencing::Off, 1)).ends_with("a run, seeds 1–200"));
        let same = Settings::between(&[spec(Fencing::On, 1), spec(Fencing::On, 1)]);
        assert_eq!(same.apart_words(1), "the same settings");
    }
}
