//! The lab's headline: in how many runs the data stayed intact, and how many of those broke
//! only the lock's promises. It uses the one grouping of the invariants
//! ([`Invariant::concern`]): a run's data is intact when it broke no [`Concern::Data`]
//! invariant, our data check found no increment lost and the article's check found no two
//! accepted writers at once. The lock's invariants ([`Concern::Lock`]: one believer, one
//! lease, tokens that increase) can break in such a run: a lease cannot keep them under pauses
//! and partitions. What kept the data then depends on the fencing: the resource's check where
//! it has one ([`what_kept_the_data`]), only the timing where it has none.
//!
//! Pure: counted from the runs, in words; no browser.

use lockstep_sim::analysis::chaos::{ChaosRun, DataVerdict};
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::story::numbers::thousands;
use lockstep_sim::vocabulary::invariant::Concern;

/// What one run did to the data, for the headline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunVerdict {
    /// Nothing broke.
    Clean,
    /// The data is intact, but the lock's promises broke.
    LockOnly,
    /// A data invariant broke, or a check found the data harmed.
    DataHarmed,
    /// The run could not be judged (it did not start, or stopped at its event budget).
    Unjudged,
}

impl RunVerdict {
    pub fn of(run: &ChaosRun) -> RunVerdict {
        let broke = |concern: Concern| run.broken.iter().any(|b| b.invariant.concern() == concern);
        if broke(Concern::Data) || run.data.is_lost() || run.writers.two_at_once().is_some() {
            RunVerdict::DataHarmed
        } else if matches!(run.data, DataVerdict::Unjudged { .. }) {
            RunVerdict::Unjudged
        } else if broke(Concern::Lock) {
            RunVerdict::LockOnly
        } else {
            RunVerdict::Clean
        }
    }
}

/// The runs so far, by [`RunVerdict`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub runs: u64,
    pub lock_only: u64,
    pub data_harmed: u64,
    pub unjudged: u64,
}

impl Tally {
    pub fn add(&mut self, run: &ChaosRun) {
        self.runs += 1;
        match RunVerdict::of(run) {
            RunVerdict::Clean => {}
            RunVerdict::LockOnly => self.lock_only += 1,
            RunVerdict::DataHarmed => self.data_harmed += 1,
            RunVerdict::Unjudged => self.unjudged += 1,
        }
    }

    /// Runs whose data is intact (the lock's promises broken or not).
    pub fn data_intact(&self) -> u64 {
        self.runs - self.data_harmed - self.unjudged
    }

    /// The headline: "Data intact in 83 of 200 runs".
    pub fn headline(&self) -> String {
        format!(
            "Data intact in {} of {} {}",
            thousands(self.data_intact()),
            thousands(self.runs),
            runs_word(self.runs)
        )
    }

    /// What the headline leaves out, in a sentence or two: the runs that broke only the
    /// lock's promises (and what kept their data, with `fencing`), and those that could not be
    /// judged. `None` when there are neither.
    pub fn detail(&self, fencing: Fencing) -> Option<String> {
        let mut said = Vec::new();
        if self.lock_only > 0 {
            said.push(format!(
                "{} of them broke only the lock's promises: for a while two clients believed they \
                 held the lock, the service's leases overlapped or its tokens went back. {}",
                thousands(self.lock_only),
                what_kept_the_data(fencing)
            ));
        }
        if self.unjudged > 0 {
            said.push(format!(
                "{} could not be judged (the run stopped at its event budget).",
                count_of_runs(self.unjudged)
            ));
        }
        (!said.is_empty()).then(|| said.join(" "))
    }
}

/// Why a run that broke only the lock's promises still has its data, with `fencing`: the
/// resource's own check where it has one; with fencing off there is none, and only the timing
/// kept an old holder from writing.
pub fn what_kept_the_data(fencing: Fencing) -> &'static str {
    match fencing {
        Fencing::On => {
            "A lease cannot prevent that when processes pause and links fail; the resource's \
             token check is what keeps the data."
        }
        Fencing::Sequencer => {
            "A lease cannot prevent that when processes pause and links fail; the resource's \
             checks (the sequencer asked of the lock service, then the highest token) are what \
             keep the data."
        }
        Fencing::CheckAndSet => {
            "A lease cannot prevent that when processes pause and links fail; the resource's \
             check-and-set on the lock's value is what keeps the data."
        }
        Fencing::Off => {
            "With fencing off the resource checks nothing: in these runs no client happened to \
             write after the lock had passed to another, so the data was kept by timing alone."
        }
    }
}

fn runs_word(n: u64) -> &'static str {
    if n == 1 { "run" } else { "runs" }
}

/// "1 run", "12 runs".
fn count_of_runs(n: u64) -> String {
    format!("{} {}", thousands(n), runs_word(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::analysis::chaos::{Broken, WritersVerdict};
    use lockstep_sim::vocabulary::invariant::Invariant;
    use lockstep_sim::world::time::VirtualTime;

    fn run(broken: &[Invariant], data: DataVerdict, two_writers: bool) -> ChaosRun {
        ChaosRun {
            seed: 1,
            events: 10,
            broken: broken
                .iter()
                .map(|&invariant| Broken {
                    invariant,
                    first_at: VirtualTime(5),
                    first_event: 3,
                })
                .collect(),
            writers: if two_writers {
                WritersVerdict::TwoAtOnce {
                    first_event: 4,
                    first_at: VirtualTime(6),
                }
            } else {
                WritersVerdict::AtMostOne { accepted: 2 }
            },
            data,
        }
    }

    const KEPT: DataVerdict = DataVerdict::Kept { accepted: 3 };

    #[test]
    fn the_lock_s_promises_alone_leave_the_data_intact() {
        assert_eq!(RunVerdict::of(&run(&[], KEPT, false)), RunVerdict::Clean);
        assert_eq!(
            RunVerdict::of(&run(
                &[Invariant::OneBeliever, Invariant::OneLease],
                KEPT,
                false
            )),
            RunVerdict::LockOnly
        );
        assert_eq!(
            RunVerdict::of(&run(
                &[Invariant::OneBeliever, Invariant::NoStaleWrite],
                KEPT,
                false
            )),
            RunVerdict::DataHarmed
        );
        let lost = DataVerdict::Lost {
            accepted: 3,
            lost: 1,
            diverged_at: None,
        };
        assert_eq!(
            RunVerdict::of(&run(&[], lost, false)),
            RunVerdict::DataHarmed
        );
        assert_eq!(
            RunVerdict::of(&run(&[], KEPT, true)),
            RunVerdict::DataHarmed
        );
        let unjudged = DataVerdict::Unjudged {
            reason: "budget".to_owned(),
        };
        assert_eq!(
            RunVerdict::of(&run(&[], unjudged, false)),
            RunVerdict::Unjudged
        );
        assert_eq!(
            RunVerdict::of(&run(&[], DataVerdict::NothingAccepted, false)),
            RunVerdict::Clean
        );
    }

    #[test]
    fn the_headline_counts_the_data_and_the_detail_the_lock() {
        let mut tally = Tally::default();
        for _ in 0..117 {
            tally.add(&run(&[Invariant::OneBeliever], KEPT, false));
        }
        for _ in 0..83 {
            tally.add(&run(&[Invariant::NoLostUpdate], KEPT, false));
        }
        tally.add(&run(&[], KEPT, false));
        assert_eq!(tally.headline(), "Data intact in 118 of 201 runs");
        let detail = tally.detail(Fencing::On).expect("lock-only runs");
        assert!(
            detail.starts_with("117 of them broke only the lock's promises"),
            "{detail}"
        );
        assert!(detail.ends_with("the resource's token check is what keeps the data."));
        assert_eq!(Tally::default().detail(Fencing::On), None);
    }

    #[test]
    fn with_fencing_off_no_check_is_said_to_keep_the_data() {
        let mut tally = Tally::default();
        tally.add(&run(&[Invariant::OneBeliever], KEPT, false));
        let off = tally.detail(Fencing::Off).expect("a lock-only run");
        assert!(!off.contains("resource's"), "{off}");
        assert!(
            off.contains("With fencing off the resource checks nothing"),
            "{off}"
        );
        assert!(off.contains("timing alone"), "{off}");
        // Each fencing says what it checks, and no two say the same.
        let mut words: Vec<&str> = lockstep_sim::analysis::chaos::FENCINGS
            .into_iter()
            .map(what_kept_the_data)
            .collect();
        assert!(words[..].iter().all(|w| w.ends_with('.')));
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), lockstep_sim::analysis::chaos::FENCINGS.len());
    }
}
