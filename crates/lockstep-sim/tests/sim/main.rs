//! Whole-run tests of the simulation (one test binary, one module per concern).

mod backends;
mod catalogue;
mod consensus_recovery;
mod etcd_lock;
mod expired_leases;
mod lease_expiry;
mod local_deadline;
mod narration;
mod properties;
mod raft_liveness;
mod scenario_errors;
mod seed_verification;
mod support;
mod waiting;
