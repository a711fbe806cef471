//! What the lab's chart counts — each invariant, the article's check and our data check — and,
//! for each, the one sentence that says why runs of these settings break it, with the lesson
//! step that shows it happen. The sentences follow the chaos run's fencing: without fencing a
//! stale write is simply accepted; with it, only the gap before the new holder's first write is
//! open, and a read-modify-write whose read was stale still loses an update.
//!
//! Pure: words and addresses; no browser.

use crate::link::route::Route;
use lockstep_sim::analysis::chaos::ChaosReport;
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::vocabulary::invariant::{Concern, Invariant};

/// The article's check, as the lab names it.
pub const ARTICLES_CHECK: &str = "The article's check: at most one accepted writer at any moment";
/// Our data check, as the lab names it.
pub const OUR_DATA_CHECK: &str = "Our data check (stronger): no increment lost";

/// What the chart counts: an invariant, the article's check, or our data check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    Invariant(Invariant),
    TwoWriters,
    DataLost,
}

/// A step of a lesson (numbered from 1, as on the page).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LessonStep {
    pub lesson: &'static str,
    pub step: usize,
    /// Words the step's text says, so a test notices when the lessons move the idea elsewhere.
    pub says: &'static str,
}

impl LessonStep {
    /// The page's address of the step (with `#`).
    pub fn href(self) -> String {
        let route = Route::Lesson {
            id: self.lesson.to_owned(),
            step: self.step.saturating_sub(1),
        };
        format!("#{}", route.fragment().unwrap_or_default())
    }
}

/// Why a bar is there: one sentence, and the step that shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Why {
    pub sentence: &'static str,
    pub step: LessonStep,
}

const fn why(sentence: &'static str, lesson: &'static str, step: usize, says: &'static str) -> Why {
    Why {
        sentence,
        step: LessonStep { lesson, step, says },
    }
}

impl Measure {
    pub fn all() -> impl Iterator<Item = Measure> {
        Invariant::ALL
            .into_iter()
            .map(Measure::Invariant)
            .chain([Measure::TwoWriters, Measure::DataLost])
    }

    pub fn id(self) -> &'static str {
        match self {
            Measure::Invariant(i) => i.id(),
            Measure::TwoWriters => "two_accepted_writers",
            Measure::DataLost => "data_lost",
        }
    }

    pub fn statement(self) -> &'static str {
        match self {
            Measure::Invariant(i) => i.statement(),
            Measure::TwoWriters => ARTICLES_CHECK,
            Measure::DataLost => OUR_DATA_CHECK,
        }
    }

    /// Which promise it is about: the lock's (drawn calm) or the data's (drawn as harm). Both
    /// checks are about the data.
    pub fn concern(self) -> Concern {
        match self {
            Measure::Invariant(i) => i.concern(),
            Measure::TwoWriters | Measure::DataLost => Concern::Data,
        }
    }

    /// The runs of `report` that broke it.
    pub fn count(self, report: &ChaosReport) -> u64 {
        match self {
            Measure::Invariant(i) => report.runs_breaking(i),
            Measure::TwoWriters => report.two_accepted_writers.unwrap_or(0),
            Measure::DataLost => report.data_lost,
        }
    }

    /// Why runs with this fencing break it, and where a lesson shows it.
    pub fn why(self, fencing: Fencing) -> Why {
        let fenced = fencing != Fencing::Off;
        match self {
            Measure::Invariant(Invariant::OneBeliever) => why(
                "A lease ends by the service's clock while its holder may be paused or cut off, so for a while two clients believe they hold the lock; no fencing can prevent that.",
                "not-a-mutex",
                5,
                "believe they hold",
            ),
            Measure::Invariant(Invariant::OneLease) => why(
                "The service granted a lease while another was still running: a failover to a replica that never got the first one, or a clock that ran ahead, can do that.",
                "cache-hazards",
                9,
                "promotes the replica",
            ),
            Measure::Invariant(Invariant::TokensIncrease) => why(
                "A token was handed out again or went back, as when a counter is lost in a failover; the resource can then no longer tell old holders from new.",
                "cache-hazards",
                11,
                "token 1 a second time",
            ),
            Measure::Invariant(Invariant::NoStaleWrite) if fenced => why(
                "The resource refuses an old holder only once it knows of the newer grant, so an old write still lands after the new holder got the lock and before its first write.",
                "fencing-tokens",
                9,
                "first write",
            ),
            Measure::Invariant(Invariant::NoStaleWrite) => why(
                "Without fencing the resource accepts every write, so a client whose lease ran out while it was paused writes anyway.",
                "no-exclusion",
                4,
                "stale write",
            ),
            Measure::Invariant(Invariant::OneWriterPerToken) => why(
                "Two clients wrote with the same token, which happens when a token is handed out twice; a check on tokens cannot tell them apart.",
                "cache-hazards",
                12,
                "Both holders' writes are accepted",
            ),
            Measure::Invariant(Invariant::NoLostUpdate) if fenced => why(
                "The token protects against a stale holder, not against a read-modify-write whose read was stale: a new holder that read before an old write landed writes back a value computed without it.",
                "fencing-tokens",
                10,
                "computed before",
            ),
            Measure::Invariant(Invariant::NoLostUpdate) => why(
                "Two clients each read the value and wrote back what they computed from it, so the later write overwrote the other's increment.",
                "not-a-mutex",
                7,
                "overwritten and lost",
            ),
            // Not the sentence above again: this one is judged from outside, after the run, on
            // the register's history, where the invariant is flagged as each write lands.
            Measure::DataLost if fenced => why(
                "Checked after the run, on the register's history: an increment a client was told was applied was overwritten by a later write computed from a stale read; a token checks who writes, not what they read.",
                "fencing-tokens",
                10,
                "computed before",
            ),
            Measure::DataLost => why(
                "Checked after the run, on the register's history: an increment a client was told was applied is missing from the final value, because a later write was computed without it.",
                "not-a-mutex",
                7,
                "overwritten and lost",
            ),
            Measure::Invariant(Invariant::NoDoubleCharge) => why(
                "A charge was retried without an idempotency key, so the payment service applied it twice.",
                "alternatives",
                7,
                "charges the card again",
            ),
            Measure::TwoWriters => why(
                "Two clients had accepted writes under way at the same moment, which a lock is meant to rule out; with read-modify-writes one increment then vanishes.",
                "efficiency-or-correctness",
                4,
                "one increment vanishes",
            ),
        }
    }
}

/// Why the first-violation histogram is there, and the step that shows the faults behind it.
pub const HISTOGRAM_WHY: Why = why(
    "A run first breaks an invariant when a fault first catches a lock holder at a bad moment, and a pause or a cut link can stop a process at any instruction.",
    "no-exclusion",
    1,
    "pause",
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use lockstep_sim::analysis::chaos::FENCINGS;

    /// Every sentence the lab can show, with the step it links.
    fn every_why() -> Vec<Why> {
        FENCINGS
            .into_iter()
            .flat_map(|f| Measure::all().map(move |m| m.why(f)))
            .chain([HISTOGRAM_WHY])
            .collect()
    }

    #[test]
    fn no_two_bars_say_the_same_sentence() {
        for fencing in FENCINGS {
            let mut sentences: Vec<&str> =
                Measure::all().map(|m| m.why(fencing).sentence).collect();
            let all = sentences.len();
            sentences.sort_unstable();
            sentences.dedup();
            assert_eq!(
                sentences.len(),
                all,
                "a sentence said twice with {fencing:?}"
            );
        }
    }

    #[test]
    fn every_linked_step_exists_and_says_what_the_sentence_relies_on() {
        let content = Content::load().expect("the guided material reads");
        for why in every_why() {
            let step = why.step;
            let lesson = content
                .lesson(step.lesson)
                .unwrap_or_else(|| panic!("no lesson {}", step.lesson));
            let text = lesson
                .steps
                .get(step.step.wrapping_sub(1))
                .unwrap_or_else(|| panic!("{} has no step {}", step.lesson, step.step))
                .text
                .as_str();
            assert!(
                text.contains(step.says),
                "{} step {} no longer says “{}”: {text}",
                step.lesson,
                step.step,
                step.says
            );
            assert_eq!(
                Route::parse(&step.href()),
                Some(Route::Lesson {
                    id: step.lesson.to_owned(),
                    step: step.step - 1
                })
            );
        }
    }

    #[test]
    fn each_sentence_is_one_short_sentence() {
        for why in every_why() {
            let s = why.sentence;
            assert!(s.ends_with('.') && s.matches(". ").count() == 0, "{s}");
            assert!(s.split_whitespace().count() <= 40, "{s}");
        }
    }

    #[test]
    fn fencing_on_explains_lost_updates_by_the_stale_read() {
        let on = Measure::Invariant(Invariant::NoLostUpdate).why(Fencing::On);
        assert!(
            on.sentence
                .contains("read-modify-write whose read was stale")
        );
        assert_eq!(on.step.href(), "#learn=fencing-tokens&step=10");
        let off = Measure::Invariant(Invariant::NoStaleWrite).why(Fencing::Off);
        assert!(off.sentence.starts_with("Without fencing"));
        assert_eq!(Measure::TwoWriters.concern(), Concern::Data);
        assert_eq!(
            Measure::Invariant(Invariant::OneLease).concern(),
            Concern::Lock
        );
    }
}
