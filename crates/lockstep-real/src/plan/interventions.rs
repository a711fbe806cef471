//! The scenario's interventions and slow links as this runner makes them: crashes, restarts,
//! cuts, clock jumps and the clients' pauses and crashes it can make for real, and the rest
//! named as not made.

use super::types::{ClientPlan, ServiceFaults, ServicePlan};
use super::unsupported::{Unmade, Unsupported};
use lockstep_sim::Scenario;
use lockstep_sim::models::lock_service::Persistence;
use lockstep_sim::scenario::types::LockServiceSpec;
use lockstep_sim::world::intervention::Action;

/// What the faults are made on: the scenario and its lock service.
struct On<'a> {
    scenario: &'a Scenario,
    service_names: &'a [String],
    service: &'a ServicePlan,
    redlock: bool,
    etcd: bool,
}

impl On<'_> {
    fn is_client(&self, name: &String) -> bool {
        self.scenario.clients.iter().any(|c| &c.name == name)
    }

    fn is_node(&self, name: &String) -> bool {
        self.service_names.contains(name)
    }
}

/// The scenario's interventions as this runner makes them, and those it cannot make.
pub(super) fn faults(
    scenario: &Scenario,
    service: &ServicePlan,
    service_names: &[String],
    clients: &mut [ClientPlan],
) -> ServiceFaults {
    let on = On {
        scenario,
        service_names,
        service,
        redlock: matches!(service, ServicePlan::Redlock { .. }),
        etcd: matches!(service, ServicePlan::Etcd { .. }),
    };
    let mut faults = ServiceFaults::default();
    for intervention in &scenario.interventions {
        let at_ms = intervention.at_ms.0;
        let action = &intervention.action;
        let made = client_fault(&on, action, at_ms, clients)
            .or_else(|| service_fault(&mut faults, &on, action, at_ms));
        if made.is_none() {
            faults.unmade.push(Unmade {
                at_ms,
                what: serde_json::to_string(action).unwrap_or_default(),
                why: why_unmade(action, scenario, service_names, on.etcd),
            });
        }
    }
    faults
}

/// A client's pause or crash, if the runner makes it: added to the client's plan.
fn client_fault(
    on: &On,
    action: &Action<String>,
    at_ms: u64,
    clients: &mut [ClientPlan],
) -> Option<()> {
    let slowest = on.scenario.network.latency_ms[1];
    match action {
        // A client is stopped only while it works (or waits to write after its lease check):
        // a pause before it can have acquired and read (two round trips at the slowest
        // latency, both ways) is not made for real.
        Action::Pause {
            node,
            for_ms: Some(length),
        } => clients
            .iter_mut()
            .find(|c| &c.name == node)
            .filter(|c| at_ms >= c.start_ms + 4 * slowest)
            .map(|c| c.pauses.push((at_ms, length.0))),
        // A client's crash, after it has started, where it holds no session the service keeps
        // alive for it (etcd's keepalives go on while it waits in the queue).
        Action::Crash { node } if on.is_client(node) && !on.etcd => clients
            .iter_mut()
            .find(|c| &c.name == node)
            .filter(|c| at_ms > c.start_ms && c.crash_ms.is_none())
            .map(|c| c.crash_ms = Some(at_ms)),
        _ => None,
    }
}

/// A fault on the lock service or a client's link to it, if the runner makes it.
fn service_fault(
    faults: &mut ServiceFaults,
    on: &On,
    action: &Action<String>,
    at_ms: u64,
) -> Option<()> {
    let linked = on.redlock || on.etcd;
    match action {
        // A cut between a client and a node: each client reaches each node through a link
        // of its own (Redlock's nodes, etcd's members), which drops the client's messages,
        // and the node's too when it is cut both ways.
        Action::Partition {
            from,
            to,
            direction,
        } if linked && on.is_client(from) && on.is_node(to) => {
            faults
                .cuts
                .push((at_ms, from.clone(), to.clone(), *direction));
        }
        Action::ClockJump { node, by_ms } if on.redlock && on.is_node(node) => {
            faults.clock_jumps.push((at_ms, node.clone(), *by_ms));
        }
        // A pause of a node the run starts for itself (Redlock's, etcd's): its process
        // stopped (`SIGSTOP`) that long, then let go on (`SIGCONT`).
        Action::Pause {
            node,
            for_ms: Some(length),
        } if linked && on.is_node(node) => {
            faults.server_pauses.push((at_ms, node.clone(), length.0));
        }
        // The primary's crash, which the failover follows; a Redlock node's crash, where
        // the node keeps nothing across it (a killed process loses no write the kernel
        // has: losing the last second of an append-only file takes a power cut).
        Action::Crash { node }
            if (matches!(on.service, ServicePlan::ReplicatedCache { .. })
                && on.service_names.first() == Some(node))
                || (on.redlock && on.is_node(node) && keeps_nothing(on.scenario)) =>
        {
            faults.crashes.push((at_ms, node.clone()));
        }
        Action::Restart { node } if on.redlock => return restart(faults, on, node, at_ms),
        _ => return None,
    }
    Some(())
}

/// A crashed Redlock node's restart, no sooner than the restart delay after its crash; one
/// due after the scenario's end is not made (the simulation ends first).
fn restart(faults: &mut ServiceFaults, on: &On, node: &String, at_ms: u64) -> Option<()> {
    let &(crashed_at, _) = faults.crashes.iter().rev().find(|(_, c)| c == node)?;
    let due = at_ms.max(crashed_at + restart_delay(on.scenario));
    if due <= on.scenario.end_ms.0 {
        faults.restarts.push((due, node.clone()));
    }
    Some(())
}

/// The scenario's links that differ from its network, each as a client's lag to the resource:
/// a link played for real is one from a client to the resource, of a fixed latency, that
/// loses nothing (the loopback proxy holds what the client sends that long).
pub(super) fn slow_links(
    scenario: &Scenario,
    resource_name: &str,
    clients: &mut [ClientPlan],
) -> Result<(), Unsupported> {
    for link in &scenario.network.links {
        let [low, high] = link.latency_ms;
        let client = clients
            .iter_mut()
            .find(|c| c.name == link.from)
            .filter(|_| link.to == resource_name && low == high && link.loss_per_million == 0)
            .ok_or(Unsupported::Scenario(
                "sets a link apart other than a client's to the resource, of a fixed latency, \
                 that loses nothing",
            ))?;
        client.resource_lag_ms = Some(low);
    }
    Ok(())
}

/// Why this runner does not make `action`, in words.
fn why_unmade(
    action: &Action<String>,
    scenario: &Scenario,
    services: &[String],
    etcd: bool,
) -> &'static str {
    let is_client = |node: &String| scenario.clients.iter().any(|c| &c.name == node);
    match action {
        Action::Pause { node, .. } if is_client(node) => {
            "a client is stopped only while it works or waits to write, once it can have \
             acquired and read"
        }
        Action::Crash { node } if is_client(node) && etcd => {
            "a client's etcd session is kept alive by the runner, which a crash would not stop"
        }
        Action::Crash { node } if is_client(node) => "a client is crashed only once it has started",
        Action::Crash { node } if services.contains(node) && !keeps_nothing(scenario) => {
            "losing a node's last second of writes takes a power cut: a killed process loses \
             nothing the kernel has"
        }
        Action::Restart { .. } => "only a Redlock node this run crashed is restarted",
        _ => "this runner makes no such fault on this service",
    }
}

/// Whether the scenario's Redlock nodes keep nothing across a crash.
fn keeps_nothing(scenario: &Scenario) -> bool {
    matches!(
        scenario.lock_service,
        LockServiceSpec::Redlock {
            persistence: Persistence::None,
            ..
        }
    )
}

/// How long a crashed Redlock node stays down at least.
fn restart_delay(scenario: &Scenario) -> u64 {
    match scenario.lock_service {
        LockServiceSpec::Redlock {
            restart_delay_ms, ..
        } => restart_delay_ms.0,
        _ => 0,
    }
}
