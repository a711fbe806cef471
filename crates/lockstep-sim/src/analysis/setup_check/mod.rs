//! "Check my lock" (issue 43): a lock as its user runs it (a `lock-setup` file), mapped to what
//! the simulator models, run many times with the faults it allows at the user's magnitudes,
//! searched for the shortest run that breaks each kind of promise, and summed up in the user's
//! terms with the changes that measurably fix it.
//!
//! - [`LockSetup`] (`setup`), read by `parse` ([`SetupError`], `error`): the file format;
//! - `mapping` ([`Mechanism`]): the setup in the simulator's terms;
//! - `generate` ([`Frame`]): one run's scenario, its faults fixed across the changes tried;
//! - `judge` ([`SetupRun`]): one run judged, beliefs apart from data;
//! - `search` ([`Shortest`]): the shortest run breaking a promise;
//! - `candidates` ([`Change`]): the changes tried;
//! - `check` ([`SetupCheck`]) and `report` ([`CheckReport`]), in words by `words`.
//!
//! It must not change how anything runs: it generates scenarios and reads their traces.

mod candidates;
mod check;
mod error;
mod generate;
mod judge;
mod mapping;
mod parse;
mod report;
mod search;
mod setup;
mod words;

pub use candidates::Change;
pub use check::{Job, Searches, Seeds, SetupCheck};
pub use error::SetupError;
pub use generate::Frame;
pub use judge::{DataHarm, SetupRun};
pub use mapping::Mechanism;
pub use parse::{MAX_SETUP_MS, check_format};
pub use report::{Broken, CHECK_REPORT_FORMAT, CheckReport, LessonRef, MeasuredChange, Verdict};
pub use search::{SEARCH_STATES, Shortest};
pub use setup::{
    LeaseCheckSetup, LockSetup, Persistence, Possible, Release, RenewalSetup, Retries,
    SETUP_FORMAT, Service, TokenUse, WorkTime, WriteKind,
};

#[cfg(test)]
mod tests;
