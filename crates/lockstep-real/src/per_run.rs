//! The servers a run starts for itself, because the run changes them for good: a Redis primary
//! and its replica (the run kills the primary), Redlock's independent nodes (the run may jump
//! a node's clock), or an etcd cluster (its revisions count every run's writes). Stopped when the value is dropped.

use crate::etcd::EtcdCluster;
use crate::plan::{Plan, RealTokens, ServicePlan};
use crate::redis::{RedlockNodes, ReplicatedRedis, counter_key};
use crate::server::ServerError;
use std::sync::Arc;
use std::time::Duration;

#[derive(Default)]
pub struct PerRun {
    pub pair: Option<Arc<ReplicatedRedis>>,
    pub redlock: Option<RedlockNodes>,
    pub etcd: Option<EtcdCluster>,
}

impl PerRun {
    /// Starts what `plan`'s lock service needs afresh for each run, if anything.
    pub fn start(plan: &Plan) -> Result<PerRun, ServerError> {
        match &plan.service {
            ServicePlan::ReplicatedCache {
                key,
                lag_ms,
                tokens,
                ..
            } => {
                let [primary, replica] =
                    [0, 1].map(|i| plan.service_names.get(i).cloned().unwrap_or_default());
                let counter = match tokens {
                    RealTokens::Counter { last } => Some((counter_key(key), *last)),
                    RealTokens::None => None,
                };
                let pair = ReplicatedRedis::start(
                    Duration::from_millis(*lag_ms),
                    &primary,
                    &replica,
                    counter,
                )?;
                Ok(PerRun {
                    pair: Some(Arc::new(pair)),
                    ..PerRun::default()
                })
            }
            ServicePlan::Redlock { .. } => {
                let jumping: Vec<String> = plan
                    .faults
                    .clock_jumps
                    .iter()
                    .map(|(_, n, _)| n.clone())
                    .collect();
                let nodes = RedlockNodes::start(&plan.service_names, &jumping)?;
                Ok(PerRun {
                    redlock: Some(nodes),
                    ..PerRun::default()
                })
            }
            // A fresh cluster per run: its revisions, and so the tokens, start afresh each run,
            // and no lease or waiter key of an earlier run is left in it.
            ServicePlan::Etcd { release, .. } => {
                let cluster = EtcdCluster::start(&plan.service_names, *release)?;
                Ok(PerRun {
                    etcd: Some(cluster),
                    ..PerRun::default()
                })
            }
            ServicePlan::SqlRow { .. } | ServicePlan::Cache { .. } => Ok(PerRun::default()),
        }
    }

    /// The versions of the servers started here, if any.
    pub fn version(&self) -> Option<String> {
        self.pair
            .as_ref()
            .map(|p| p.version.clone())
            .or_else(|| self.redlock.as_ref().map(|r| r.version.clone()))
            .or_else(|| self.etcd.as_ref().map(|e| e.version.clone()))
    }
}
