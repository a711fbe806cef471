//! The summary of many chaos runs with the same settings, built in seed order: per invariant the
//! number of runs that broke it, the article's check's count and our data check's, when the
//! first violation came (a histogram with fixed buckets over the run's duration) and every
//! violating seed. Its JSON, with a `format` version, is the export. It never needs a trace.
//!
//! Format 2 added the article's check (`two_accepted_writers`, and each violating seed's
//! `two_writers_at`); a format 1 report, which did not run it, still reads, with the check's
//! count unknown (`None`).

use super::run::{ChaosRun, DataVerdict};
use super::settings::ChaosSettings;
use crate::scenario::strict_json::{self, JsonError};
use crate::vocabulary::invariant::Invariant;
use crate::world::time::{Millis, VirtualTime};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The version of the report's JSON that this version writes.
pub const REPORT_FORMAT: u32 = 2;

/// The oldest version of the report's JSON that this version reads.
pub const OLDEST_REPORT_FORMAT: u32 = 1;

/// How many buckets the first-violation histogram has.
pub const HISTOGRAM_BUCKETS: u64 = 20;

/// How many runs broke one invariant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvariantCount {
    pub invariant: Invariant,
    pub runs: u64,
}

/// When runs first broke any invariant: `counts[i]` runs did so in
/// `i × bucket_ms .. (i + 1) × bucket_ms` (the last bucket also holds the run's last moment).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    pub bucket_ms: Millis,
    pub counts: Vec<u64>,
}

impl Histogram {
    fn over(duration: Millis) -> Histogram {
        Histogram {
            bucket_ms: Millis(duration.0.div_ceil(HISTOGRAM_BUCKETS).max(1)),
            counts: vec![0; usize::try_from(HISTOGRAM_BUCKETS).unwrap_or(0)],
        }
    }

    fn add(&mut self, at: VirtualTime) {
        let bucket = (at.0 / self.bucket_ms.0).min(HISTOGRAM_BUCKETS - 1);
        if let Some(count) = usize::try_from(bucket)
            .ok()
            .and_then(|i| self.counts.get_mut(i))
        {
            *count += 1;
        }
    }
}

/// A run that broke an invariant, failed the article's check or lost data, and where its first
/// violation is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViolatingSeed {
    pub seed: u64,
    /// The trace index and time of the first event that broke an invariant; none when only the
    /// checks failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_event: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_at: Option<VirtualTime>,
    pub invariants: Vec<Invariant>,
    /// The trace index of the first moment with two accepted writers, when the article's check
    /// failed (format 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub two_writers_at: Option<usize>,
    /// Whether our data check found increments lost.
    pub data_lost: bool,
}

/// The summary of the runs `first_seed .. first_seed + runs`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChaosReport {
    pub format: u32,
    pub settings: ChaosSettings,
    pub first_seed: u64,
    /// How many runs were added.
    pub runs: u64,
    /// For each invariant, in [`Invariant::ALL`]'s order, how many runs broke it.
    pub broken: Vec<InvariantCount>,
    /// Runs in which the article's check found two accepted writers at one moment; `None` in a
    /// format 1 report, made before the check was run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub two_accepted_writers: Option<u64>,
    /// Runs in which our data check found lost increments.
    pub data_lost: u64,
    /// Runs in which the resource accepted no write (nothing for the data check to check).
    pub nothing_accepted: u64,
    /// Runs that could not be judged.
    pub unjudged: u64,
    pub first_violation: Histogram,
    /// Every run that broke an invariant or lost data, in seed order.
    pub violating: Vec<ViolatingSeed>,
}

impl ChaosReport {
    pub fn new(settings: ChaosSettings, first_seed: u64) -> ChaosReport {
        ChaosReport {
            format: REPORT_FORMAT,
            settings,
            first_seed,
            runs: 0,
            broken: Invariant::ALL
                .into_iter()
                .map(|invariant| InvariantCount { invariant, runs: 0 })
                .collect(),
            two_accepted_writers: Some(0),
            data_lost: 0,
            nothing_accepted: 0,
            unjudged: 0,
            first_violation: Histogram::over(settings.duration),
            violating: Vec::new(),
        }
    }

    /// The seed the next run added must have.
    pub fn next_seed(&self) -> u64 {
        self.first_seed.wrapping_add(self.runs)
    }

    /// Adds the next run; runs must come in seed order, so the report does not depend on how
    /// the runs were scheduled.
    pub fn add(&mut self, run: &ChaosRun) -> Result<(), ReportError> {
        let expected = self.next_seed();
        if run.seed != expected {
            return Err(ReportError::OutOfOrder {
                expected,
                got: run.seed,
            });
        }
        self.runs += 1;
        for count in &mut self.broken {
            if run.broke(count.invariant) {
                count.runs += 1;
            }
        }
        let two_writers_at = run.writers.two_at_once().map(|(event, _)| event);
        if two_writers_at.is_some() {
            // A report this version made counts from its first run; an older one read back
            // stays unknown.
            if let Some(count) = &mut self.two_accepted_writers {
                *count += 1;
            }
        }
        match run.data {
            DataVerdict::Lost { .. } => self.data_lost += 1,
            DataVerdict::NothingAccepted => self.nothing_accepted += 1,
            DataVerdict::Unjudged { .. } => self.unjudged += 1,
            DataVerdict::Kept { .. } => {}
        }
        let first = run.first_violation();
        if let Some(first) = first {
            self.first_violation.add(first.first_at);
        }
        if first.is_some() || two_writers_at.is_some() || run.data.is_lost() {
            self.violating.push(ViolatingSeed {
                seed: run.seed,
                first_event: first.map(|b| b.first_event),
                first_at: first.map(|b| b.first_at),
                invariants: run.broken.iter().map(|b| b.invariant).collect(),
                two_writers_at,
                data_lost: run.data.is_lost(),
            });
        }
        Ok(())
    }

    /// How many runs broke `invariant`.
    pub fn runs_breaking(&self, invariant: Invariant) -> u64 {
        self.broken
            .iter()
            .find(|c| c.invariant == invariant)
            .map_or(0, |c| c.runs)
    }

    /// Reads an exported report strictly, in any format from [`OLDEST_REPORT_FORMAT`] to
    /// [`REPORT_FORMAT`], refusing another (the version is read first, so that a newer report
    /// says so instead of naming a field this build does not know). The article's check is in
    /// format 2 only: a format 2 report must have its count and a format 1 report must not.
    pub fn from_json(json: &str) -> Result<ChaosReport, ReportError> {
        if let Ok(FormatProbe {
            format: Some(found),
        }) = strict_json::from_str(json, "chaos report")
            && !(OLDEST_REPORT_FORMAT..=REPORT_FORMAT).contains(&found)
        {
            return Err(ReportError::Format(found));
        }
        let report: ChaosReport =
            strict_json::from_str(json, "chaos report").map_err(ReportError::Json)?;
        let has_check = report.two_accepted_writers.is_some()
            || report.violating.iter().any(|v| v.two_writers_at.is_some());
        match (report.format, has_check, report.two_accepted_writers) {
            (1, true, _) => Err(ReportError::NotInFormat1),
            (1, false, _) | (_, _, Some(_)) => Ok(report),
            (_, _, None) => Err(ReportError::MissingCount),
        }
    }
}

/// Just the version of a report, read before the rest.
#[derive(Deserialize)]
struct FormatProbe {
    format: Option<u32>,
}

/// Why a run could not be added, or a report not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReportError {
    OutOfOrder {
        expected: u64,
        got: u64,
    },
    /// Not a report of this shape, and where.
    Json(JsonError),
    Format(u32),
    /// A format 1 report that has the article's check, which came with format 2.
    NotInFormat1,
    /// A format 2 report without the article's check's count.
    MissingCount,
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::OutOfOrder { expected, got } => write!(
                f,
                "the run with seed {got} came when the report needed seed {expected} (runs are \
                 added in seed order)"
            ),
            ReportError::Json(reason) => write!(f, "not a chaos report: {reason}"),
            ReportError::Format(format) => write!(
                f,
                "format: this is chaos report format {format}, but this version of Lockstep \
                 reads chaos report formats {OLDEST_REPORT_FORMAT} to {REPORT_FORMAT}"
            ),
            ReportError::NotInFormat1 => f.write_str(
                "two_accepted_writers: chaos report format 1 has no article's check; write \
                 \"format\": 2",
            ),
            ReportError::MissingCount => f.write_str(
                "two_accepted_writers: missing (chaos report format 2 counts the runs that \
                 failed the article's check)",
            ),
        }
    }
}
