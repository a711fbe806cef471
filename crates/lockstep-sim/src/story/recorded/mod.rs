//! A history recorded outside the simulation: what real clients saw of a real lock service and
//! a real resource, in milliseconds from the recording's start (`docs/history-format.md`).
//! Lockstep's own reality check writes it (`lockstep-real`), and a user can convert their own
//! system's logs into it; either is drawn on the same timeline and judged by the same
//! invariants as a simulated run (`analysis::recorded_verdicts`).
//!
//! The file says only what was observed: requests with the time they were sent and the time
//! their answer came (if it came), and the faults the recorder applied. It holds no model state
//! and nothing a recorder could not see; what the simulation knows besides (who holds a lease
//! at the service, when a message arrived) is inferred from it or not shown.
//!
//! [`RecordedFile`] is the file as written (flat objects, every field optional where some
//! operation lacks it); [`RecordedHistory`] is what reading it checks and returns, typed. This
//! module never runs a scenario or judges an invariant.

mod error;
mod file;
mod history;
mod operation;
mod read;
mod request;

pub use error::HistoryError;
pub use file::{
    FaultKind, HISTORY_FORMAT_VERSION, OpKind, RecordedFencing, RecordedFile, Recording,
};
pub use history::{Applied, Fault, RecordedHistory};
pub use request::{Acquired, Operation, Renewed, Request, Written};
