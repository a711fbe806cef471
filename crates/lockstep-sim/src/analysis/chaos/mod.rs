//! The chaos engine: many generated runs in which clients contend for a lock over and over while
//! faults strike — the article's third verification test ("maintains at most one holder under
//! chaos") generalised to the six lock services and four fault kinds, judged per run (the
//! invariants, the article's check and our data check) and summed up over many seeds. The chaos lab, `lockstep-cli chaos` and the benchmark use it.
//!
//! - [`ChaosSettings`] (`settings`): what a batch of runs is set up with, and its text form;
//!   (`words`) the settings in words for a reader;
//! - [`ChaosBackend`] (`backend`), [`FaultSet`] (`faults`): the lock services and fault kinds;
//! - [`Chaos`] (`generate`): one run's scenario, from settings and a seed;
//! - [`run_chaos`] → [`ChaosRun`] (`run`): one run, judged;
//! - [`ChaosReport`] (`report`): many runs summed up, in seed order.
//!
//! It must not change how anything runs: it generates scenarios and reads their traces.

mod backend;
mod faults;
mod generate;
mod report;
mod run;
mod settings;
mod words;

pub use backend::ChaosBackend;
pub use faults::{FaultKind, FaultSet, FaultSetError};
pub use generate::Chaos;
pub use report::{
    ChaosReport, HISTOGRAM_BUCKETS, Histogram, InvariantCount, OLDEST_REPORT_FORMAT, REPORT_FORMAT,
    ReportError, ViolatingSeed,
};
pub use run::{Broken, ChaosRun, DataVerdict, WritersVerdict, run_chaos};
pub use settings::{
    ChaosSettings, ClientCount, DURATION_MS, FENCINGS, SettingsError, fencing_from_id, fencing_id,
};
pub use words::{fencing_label, seconds};

#[cfg(test)]
mod tests;
