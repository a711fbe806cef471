//! The faults a real run makes on the lock service, when the plan says: the primary's crash
//! (`SIGKILL`), and the replica's promotion the failover delay after it, as the simulation's
//! monitor does. Each is recorded as applied.

use crate::plan::{Plan, ServicePlan};
use crate::record::Recorder;
use crate::redis::ReplicatedRedis;
use lockstep_sim::story::recorded::Applied;

/// Makes the plan's crashes on `pair`, and the failover after each.
pub fn play(plan: &Plan, pair: &ReplicatedRedis, recorder: &Recorder) {
    let failover_after_ms = match plan.service {
        ServicePlan::ReplicatedCache {
            failover_after_ms, ..
        } => failover_after_ms,
        _ => return,
    };
    for (at_ms, node) in &plan.crashes {
        recorder.wait_until(*at_ms);
        pair.crash_primary();
        recorder.applied(node, *at_ms, Applied::Crash);
        let promote_at = at_ms + failover_after_ms;
        recorder.wait_until(promote_at);
        match pair.promote_replica() {
            Ok(()) => recorder.applied(&pair.replica_name, promote_at, Applied::Failover),
            Err(why) => recorder.failed(&format!("promoting {}: {why}", pair.replica_name)),
        }
    }
}
