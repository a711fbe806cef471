//! Whole-run tests of the simulation (one test binary, one module per concern).

#![warn(clippy::too_many_lines)]

mod backends;
mod budget;
mod cases;
mod catalogue;
mod consensus_clocks;
mod consensus_recovery;
mod consensus_safety;
mod corpus;
mod data;
mod etcd_lock;
mod expectations;
mod expired_leases;
mod extremes;
mod fenced_article_runs;
mod found;
mod lease_expiry;
mod local_deadline;
mod mechanisms;
mod narration;
mod properties;
mod property;
mod raft_liveness;
mod recorded;
mod recorded_applied;
mod recorded_quorum;
mod recorded_renewal;
mod rejudge;
mod resource_restart;
mod runs_end;
mod scenario_errors;
mod scenario_mutations;
mod search;
mod support;
mod verification;
mod waiting;
