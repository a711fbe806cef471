//! What a check found, in the user's terms: the verdict, how many runs broke each kind of
//! promise, the shortest failing run for each, the lesson that explains it, the changes tried
//! and measured, and what the check cannot see. Its JSON, with a `format` version, is what
//! `lockstep-cli check-setup --json` prints. It must not run anything: it sums runs up.

use super::candidates::Change;
use super::judge::{DataHarm, SetupRun};
use super::search::Shortest;
use super::setup::LockSetup;
use crate::world::time::Millis;
use serde::{Deserialize, Serialize};

/// The version of the report's JSON.
pub const CHECK_REPORT_FORMAT: u32 = 1;

/// The answer, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The data came to harm where fencing does not stand in the way.
    DataLost,
    /// The resource fences, and still a stale write landed in the fencing gap (before the
    /// newer holder's first write) and harmed the data.
    DataLostInFencingGap,
    /// Two clients believed they held the lock, and the data survived every run.
    BeliefsOverlap,
    /// Neither promise broke in any run nor in the search.
    Intact,
}

impl Verdict {
    /// Whether data can be lost: the command line then exits non-zero.
    pub fn data_can_be_lost(self) -> bool {
        matches!(self, Verdict::DataLost | Verdict::DataLostInFencingGap)
    }
}

/// How many runs broke one kind of promise, and the first seed that did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Broken {
    pub runs: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_seed: Option<u64>,
}

impl Broken {
    /// Counts the runs for which `broke` holds, in seed order.
    pub fn count(runs: &[SetupRun], broke: impl Fn(&SetupRun) -> bool) -> Broken {
        runs.iter()
            .filter(|run| broke(run))
            .fold(Broken::default(), |sum, run| Broken {
                runs: sum.runs + 1,
                first_seed: sum.first_seed.or(Some(run.seed)),
            })
    }
}

/// A change tried, with the same seeds before and after.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeasuredChange {
    pub change: Change,
    pub label: String,
    pub data_before: u64,
    pub data_after: u64,
    pub beliefs_before: u64,
    pub beliefs_after: u64,
    /// It removed the data harm from every run (that had some), and the search found none.
    pub recommended: bool,
}

/// A lesson of `content/lessons.json` that explains what broke.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonRef {
    pub lesson: String,
    pub why: String,
}

/// What a check of one setup found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckReport {
    pub format: u32,
    pub setup: LockSetup,
    pub runs: u64,
    /// The first seed; the runs are `first_seed .. first_seed + runs`.
    pub first_seed: u64,
    /// How long each run lasted, in virtual time.
    pub run_ms: Millis,
    pub verdict: Verdict,
    /// The verdict in a sentence, with the numbers.
    pub headline: String,
    pub harm: DataHarm,
    pub beliefs: Broken,
    pub data: Broken,
    /// Runs in which a write was accepted with a stale token (harmful or not).
    pub stale_writes: Broken,
    pub unjudged: u64,
    pub shortest_beliefs: Shortest,
    pub shortest_data: Shortest,
    pub lessons: Vec<LessonRef>,
    pub changes: Vec<MeasuredChange>,
    /// No single change removed the data harm.
    pub no_single_change_suffices: bool,
    pub cannot_see: Vec<String>,
}
