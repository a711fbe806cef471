//! The article's second test, "does not release a lock held by another client": after the
//! expired holder's late release, the lock service must still say the new holder holds the lock.

use super::finding::Finding;
use super::two_clients::{Subject, two_clients};
use crate::engine::sim::Sim;
use crate::vocabulary::happening::Happening;
use crate::world::time::Millis;

/// How long the new holder works: long enough to still hold the lock when the late release
/// arrives.
const NEW_HOLDER_WORK: Millis = Millis(2_000);

/// Runs the two-client scenario against `subject` and asks the lock service who holds the lock
/// once the paused client's release has been handled (by every node it went to, until the
/// client's job ends).
pub fn stale_release(subject: &Subject) -> Finding {
    let mut sim = match Sim::new(&two_clients(subject, NEW_HOLDER_WORK)) {
        Ok(sim) => sim,
        Err(error) => return Finding::CannotRun(error.to_string()),
    };
    let (a, b) = (sim.cast().find("client-a"), sim.cast().find("client-b"));
    let mut after_release = None;
    while let Some(event) = sim.step() {
        let happening = event.happening;
        if matches!(
            happening,
            Happening::Released { client, .. }
            | Happening::ReleaseRefused { client, .. }
            | Happening::ReleasedOthersLock { client, .. } if Some(client) == a
        ) {
            after_release = Some(sim.lock_holder());
        }
        if after_release.is_some() && happening.job_result().is_some_and(|(c, _)| Some(c) == a) {
            break;
        }
    }
    match after_release {
        None => Finding::ReleaseNeverHandled,
        Some(holder) if holder.is_some() && holder == b => Finding::NewHolderKeepsLock,
        Some(holder) => Finding::StaleReleaseFreedLock {
            holder: holder.map(|h| sim.cast().name(h).to_owned()),
        },
    }
}
