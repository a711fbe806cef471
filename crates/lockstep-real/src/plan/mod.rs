//! What each client of a scenario does, and when, as a real run plays it: take the lock with
//! the client's lease (trying again as its retry policy says), read the resource if it writes
//! what it read plus one, work (a pause that falls in it holds the write back until the pause
//! ends, as the simulation's does: `ClientPlan::busy`), write with its token, and release the
//! lock as it says.
//! Only the shapes this runner can make for real are accepted; anything else is refused with
//! what it is (`unsupported.rs`), so that no run pretends to be the scenario it is not. The
//! scenario's faults and slow links become the plan's in `interventions.rs`; a fault it cannot
//! make is named there, and the run goes without it.

mod interventions;
mod types;
mod unsupported;

use interventions::{faults, slow_links};

pub use types::{
    Busy, ClientPlan, Plan, RealAccess, RealFencing, RealLeaseCheck, RealTokens, ServiceFaults,
    ServicePlan,
};
pub use unsupported::{Unmade, Unsupported};

use crate::etcd::EtcdRelease;
use lockstep_sim::Scenario;
use lockstep_sim::analysis::against::service_of;
use lockstep_sim::models::client::{
    Access, LeaseCheck, LocalDeadline, Locking, RedlockParams, Renewal, Repeat, RequestTimeout,
    RetryPolicy,
};
use lockstep_sim::models::lock_service::{KnownBug, Waiting};
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::types::{ClientSpec, ConsensusSystem, LockServiceSpec, ResourceSpec};
use lockstep_sim::world::time::Millis;

impl Plan {
    /// The plan of `scenario`, or why it cannot be played for real.
    pub fn of(scenario: &Scenario) -> Result<Plan, Unsupported> {
        let checked = scenario
            .check()
            .map_err(|e| Unsupported::Invalid(e.to_string()))?;
        let cast = checked.cast();
        let lock_service_name = cast.name(cast.lock_service()).to_owned();
        let service_names: Vec<String> = cast.services().map(|n| cast.name(n).to_owned()).collect();
        let resource_name = cast.name(cast.resource()).to_owned();
        let service = service_plan(&scenario.lock_service)?;
        let (fencing, initial_value) = resource_plan(&scenario.resource)?;
        if !scenario.clocks.is_empty() {
            return Err(Unsupported::Scenario("sets clocks apart"));
        }
        if scenario.network.loss_per_million > 0 {
            return Err(Unsupported::Scenario("loses messages"));
        }
        let mut clients = scenario
            .clients
            .iter()
            .map(|client| client_plan(client, &service))
            .collect::<Result<Vec<_>, _>>()?;
        slow_links(scenario, &resource_name, &mut clients)?;
        // A real run lasts until its clients are done; the simulation stops at the end.
        if let Some(late) = clients
            .iter()
            .find(|c| c.start_ms + c.work_ms > scenario.end_ms.0)
        {
            return Err(Unsupported::Policy {
                client: late.name.clone(),
                what: "is still working when the scenario ends",
            });
        }
        if let (ServicePlan::Redlock { .. }, Some(renewing)) =
            (&service, clients.iter().find(|c| c.renewals.is_some()))
        {
            return Err(Unsupported::Policy {
                client: renewing.name.clone(),
                what: "renews a Redlock lease",
            });
        }
        let faults = faults(scenario, &service, &service_names, &mut clients);
        Ok(Plan {
            scenario: scenario.id.clone(),
            title: scenario.title.clone(),
            lock_service_name,
            resource_name,
            service_names,
            service,
            faults,
            fencing,
            initial_value,
            clients,
        })
    }
}

fn service_plan(spec: &LockServiceSpec) -> Result<ServicePlan, Unsupported> {
    match spec {
        LockServiceSpec::SqlRow {
            lock_name,
            last_token,
        } => Ok(ServicePlan::SqlRow {
            lock_name: lock_name.clone(),
            last_token: *last_token,
        }),
        LockServiceSpec::Cache {
            key,
            tokens,
            last_token,
            ..
        } => Ok(ServicePlan::Cache {
            key: key.clone(),
            tokens: RealTokens::of(*tokens, *last_token),
        }),
        LockServiceSpec::ReplicatedCache {
            key,
            tokens,
            last_token,
            replication_lag_ms,
            failover_after_ms,
        } => Ok(ServicePlan::ReplicatedCache {
            key: key.clone(),
            tokens: RealTokens::of(*tokens, *last_token),
            lag_ms: replication_lag_ms.0,
            failover_after_ms: failover_after_ms.0,
        }),
        // A node that crashes and restarts (S11) is refused with the crash itself.
        LockServiceSpec::Redlock {
            nodes,
            elapsed_check,
            node_timeout_ms,
            ..
        } => Ok(ServicePlan::Redlock {
            key: "lock".to_owned(),
            params: RedlockParams {
                nodes: *nodes,
                elapsed_check: *elapsed_check,
                node_timeout: *node_timeout_ms,
            },
        }),
        // The bug on the release that still has it (Debian 12's 3.4.23), anything else on the
        // one that re-checks a waiter's key (Debian 13's 3.5.16): `etcd/release.rs`.
        LockServiceSpec::Consensus {
            system: ConsensusSystem::Etcd,
            lock_delay_ms: Millis(0),
            waiters: Waiting::FairQueue,
            bug,
            ..
        } => Ok(ServicePlan::Etcd {
            lock_name: "lockstep-lock".to_owned(),
            release: match bug {
                KnownBug::Etcd343 => EtcdRelease::Debian12,
                KnownBug::None => EtcdRelease::Debian13,
            },
        }),
        other => Err(Unsupported::LockService(
            service_of(other).label().to_owned(),
        )),
    }
}

fn resource_plan(spec: &ResourceSpec) -> Result<(RealFencing, i64), Unsupported> {
    let ResourceSpec::Register {
        fencing,
        initial_value,
        ..
    } = spec
    else {
        return Err(Unsupported::Resource("is not a register"));
    };
    let fencing = match fencing {
        Fencing::On => RealFencing::On,
        Fencing::Off => RealFencing::Off,
        Fencing::CheckAndSet | Fencing::Sequencer => {
            return Err(Unsupported::Resource("checks a claim or a sequencer"));
        }
    };
    Ok((fencing, *initial_value))
}

fn client_plan(client: &ClientSpec, service: &ServicePlan) -> Result<ClientPlan, Unsupported> {
    let access = match client.access {
        Access::ReadModifyWrite {} => RealAccess::ReadModifyWrite,
        Access::BlindWrite { value } => RealAccess::BlindWrite(value),
        _ => {
            return Err(Unsupported::Access {
                client: client.name.clone(),
            });
        }
    };
    let policy = |what| Unsupported::Policy {
        client: client.name.clone(),
        what,
    };
    let retry = match client.retry {
        RetryPolicy::GiveUp {} => None,
        RetryPolicy::Fixed { delay_ms, attempts } => Some((delay_ms.0, attempts)),
        RetryPolicy::Random { .. } => return Err(policy("retries after random delays")),
    };
    let etcd = matches!(service, ServicePlan::Etcd { .. });
    if let Some(what) = unplayed_policy(client, etcd) {
        return Err(policy(what));
    }
    Ok(ClientPlan {
        name: client.name.clone(),
        start_ms: client.start_ms.0,
        ttl_ms: client.ttl_ms.0,
        work_ms: client.work_ms.0,
        access,
        release: client.release,
        retry,
        pauses: Vec::new(),
        resource_lag_ms: None,
        crash_ms: None,
        timeout_ms: match client.timeout {
            RequestTimeout::Never {} => None,
            RequestTimeout::After { ms } => Some(ms.0),
        },
        renewals: match client.renewal {
            Renewal::Never {} => None,
            Renewal::Every { max_renewals } => Some(max_renewals),
        },
        lease_check: match client.lease_check {
            LeaseCheck::Never {} => None,
            LeaseCheck::BeforeWrite {
                margin_ms,
                gap_ms,
                measure,
            } => Some(RealLeaseCheck {
                margin_ms: margin_ms.0,
                gap_ms: gap_ms.0,
                measure,
            }),
        },
    })
}

/// What of `client` differs from the client this runner plays (a lease, renewals that outlast
/// the work, no deadline, one job; no timeout, except on etcd, whose leases are whole
/// seconds), if anything.
fn unplayed_policy(client: &ClientSpec, etcd: bool) -> Option<&'static str> {
    let differs = [
        (client.locking != Locking::Lease, "goes without the lock"),
        // The renewals must outlast the work: a client that runs out of them abandons its
        // lock, which this runner does not play.
        (
            matches!(client.renewal, Renewal::Every { max_renewals }
                if u64::from(max_renewals) * (client.ttl_ms.0 / 3) < client.work_ms.0),
            "runs out of renewals before its work is done",
        ),
        (client.repeat != Repeat::Once {}, "repeats its job"),
        (
            !etcd && client.timeout != RequestTimeout::Never {},
            "times its requests out",
        ),
        (
            etcd && !client.ttl_ms.0.is_multiple_of(1000),
            "asks etcd for a lease that is not whole seconds",
        ),
        (
            client.local_deadline != LocalDeadline::Never {},
            "keeps a local deadline",
        ),
    ];
    differs
        .into_iter()
        .find_map(|(yes, what)| yes.then_some(what))
}
