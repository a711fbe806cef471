//! The twin: runs A with its interventions, carries each onto B at its moment (running B up to
//! that moment with the ones carried before it), builds B's scenario, and judges both runs.

use super::carry::{Carried, Carry, Moment, Pairs, node_onto, sentence_name};
use super::role::ServiceView;
use super::verdict::{SideVerdict, verdict_line};
use crate::analysis::chaos::ChaosBackend;
use crate::scenario::error::ScenarioError;
use crate::scenario::types::LockServiceSpec;
use crate::scenario::types::Scenario;
use crate::world::intervention::{Action, Intervention};

/// The longest scenario id (`Scenario::parse` checks it).
const MAX_ID_LEN: usize = 64;
use crate::engine::sim::Sim;
use crate::world::time::VirtualTime;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A scenario compared on two lock services.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Twin {
    pub service_a: ChaosBackend,
    pub service_b: ChaosBackend,
    /// B's run as a scenario: A's clients, resource, network, seed and end, B's default service
    /// (A's own setup when B is the same service),
    /// the carried interventions. It replays B's run with `lockstep-cli run`.
    pub scenario_b: Scenario,
    /// A's interventions (the scenario's own, then the user's), in the order the run applies
    /// them, each with its roles and what it became on B.
    pub carried: Vec<Carried>,
    /// Settings of A's scenario that name a service node (a clock, a link) and have no
    /// counterpart on B, each with its reason.
    pub settings_dropped: Vec<String>,
    pub verdict_a: SideVerdict,
    pub verdict_b: SideVerdict,
}

impl Twin {
    /// "Redlock, 5 nodes: two clients believed they held the lock from 1,210 ms; Consensus, 3
    /// replicas: never".
    pub fn verdict_line(&self) -> String {
        verdict_line(&self.verdict_a, &self.verdict_b)
    }

    pub fn mapped(&self) -> impl Iterator<Item = &Carried> {
        self.carried.iter().filter(|c| c.is_mapped())
    }

    pub fn unmapped(&self) -> impl Iterator<Item = &Carried> {
        self.carried.iter().filter(|c| !c.is_mapped())
    }
}

/// Why a comparison could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgainstError {
    /// A's scenario (with the user's interventions) cannot be run.
    ScenarioA(ScenarioError),
    /// B's scenario, as built, cannot be run (a setting of A that B's service rejects).
    ScenarioB(ScenarioError),
}

impl fmt::Display for AgainstError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgainstError::ScenarioA(error) => write!(f, "the scenario cannot run: {error}"),
            AgainstError::ScenarioB(error) => {
                write!(f, "the twin on the other service cannot run: {error}")
            }
        }
    }
}

impl std::error::Error for AgainstError {}

/// Which of the six lock services a scenario's service is (its design, whatever its settings).
pub fn service_of(spec: &LockServiceSpec) -> ChaosBackend {
    match spec {
        LockServiceSpec::SqlRow { .. } => ChaosBackend::SqlRow,
        LockServiceSpec::Cache { .. } => ChaosBackend::Cache,
        LockServiceSpec::ReplicatedCache { .. } => ChaosBackend::ReplicatedCache,
        LockServiceSpec::DataGrid { .. } => ChaosBackend::DataGrid,
        LockServiceSpec::Redlock { .. } => ChaosBackend::Redlock,
        LockServiceSpec::Consensus { .. } => ChaosBackend::Consensus,
    }
}

/// Compares `scenario_a`, with the user's `log` added to its own interventions (as
/// [`Sim::with_log`] applies them), against `service_b`. Deterministic: both runs use
/// `scenario_a.seed`.
pub fn against(
    scenario_a: &Scenario,
    log: &[Intervention<String>],
    service_b: ChaosBackend,
) -> Result<Twin, AgainstError> {
    let seed = scenario_a.seed;
    let service_a = service_of(&scenario_a.lock_service);
    let mut a = Sim::with_log(scenario_a, seed, log).map_err(AgainstError::ScenarioA)?;
    let (base_b, settings_dropped) = base_scenario(scenario_a, service_b)?;

    let mut all: Vec<Intervention<String>> = scenario_a
        .interventions
        .iter()
        .chain(log)
        .cloned()
        .collect();
    // The run applies interventions by time, then in the order given.
    all.sort_by_key(|i| i.at_ms);

    let mut pairs = Pairs::default();
    let mut carried: Vec<Carried> = Vec::with_capacity(all.len());
    let mut mapped: Vec<Intervention<String>> = Vec::new();
    let build_b = |mapped: &[Intervention<String>]| {
        Sim::with_log(&base_b, seed, mapped).map_err(AgainstError::ScenarioB)
    };
    let mut b = build_b(&[])?;
    // Whether `b` runs every intervention mapped so far. B's state is read only where a role in
    // the service or a message is looked up; between those, B is rebuilt at most once (a long
    // chaos scenario carries hundreds of client faults).
    let mut b_current = true;
    for on_a in &all {
        // "At its moment": after every event before its millisecond, before anything at it.
        let before = on_a.at_ms.0.checked_sub(1).map(VirtualTime);
        if let Some(before) = before {
            a.run_through(before);
        }
        if reads_b(&a, &on_a.action) {
            if !b_current {
                b = build_b(&mapped)?;
                b_current = true;
            }
            if let Some(before) = before {
                b.run_through(before);
            }
        }
        let a_view = ServiceView::of(&a, service_a);
        let b_view = ServiceView::of(&b, service_b);
        let one = pairs.carry(
            &Moment {
                at: on_a.at_ms,
                a: &a,
                a_view: &a_view,
                b: &b,
                b_view: &b_view,
                service_b,
            },
            on_a,
        );
        if let Carry::Mapped { intervention } = &one.onto_b {
            mapped.push(intervention.clone());
            b_current = false;
        }
        carried.push(one);
    }

    a.run_to_end();
    if !b_current {
        b = build_b(&mapped)?;
    }
    b.run_to_end();
    let scenario_b = Scenario {
        interventions: mapped,
        ..base_b
    };
    Ok(Twin {
        service_a,
        service_b,
        verdict_a: SideVerdict::of(service_a, a.trace()),
        verdict_b: SideVerdict::of(service_b, b.trace()),
        scenario_b,
        carried,
        settings_dropped,
    })
}

/// Whether carrying `action` reads B's state: it names a service node (whose role in B is
/// looked up) or a message (looked up in flight in B). Clients and the resource keep their names.
fn reads_b(a: &Sim, action: &Action<String>) -> bool {
    let cast = a.cast();
    matches!(
        action,
        Action::Hold { .. } | Action::Release { .. } | Action::Drop { .. }
    ) || action
        .clone()
        .try_map(|name| match cast.find(&name) {
            Some(node) if cast.is_service(node) => Err(()),
            _ => Ok(()),
        })
        .is_err()
}

/// B's scenario without interventions: A's with B's default service (A's own when B is A's), no expectations (they were
/// written for A), and A's clock and link settings carried by role at the start of the run.
fn base_scenario(
    scenario_a: &Scenario,
    service_b: ChaosBackend,
) -> Result<(Scenario, Vec<String>), AgainstError> {
    let service_a = service_of(&scenario_a.lock_service);
    let mut base = Scenario {
        id: twin_id(&scenario_a.id, service_b),
        title: format!("{} — against {}", scenario_a.title, service_b.label()),
        summary: format!(
            "The same clients, resource, network, seed and faults as \"{}\", against {}: each \
             intervention carried over by the role its node played at its moment.",
            scenario_a.id,
            sentence_name(service_b)
        ),
        // Against itself, a service keeps the scenario's own setup: the twin is then the same
        // run, which is what the role mapping must reproduce.
        lock_service: if service_b == service_a {
            scenario_a.lock_service.clone()
        } else {
            service_b.spec()
        },
        interventions: Vec::new(),
        expectations: Vec::new(),
        clocks: Vec::new(),
        ..scenario_a.clone()
    };
    base.network.links.clear();
    let a = Sim::with_log(
        &Scenario {
            interventions: Vec::new(),
            ..scenario_a.clone()
        },
        scenario_a.seed,
        &[],
    )
    .map_err(AgainstError::ScenarioA)?;
    let b = Sim::with_log(&base, scenario_a.seed, &[]).map_err(AgainstError::ScenarioB)?;
    let a_view = ServiceView::of(&a, service_a);
    let b_view = ServiceView::of(&b, service_b);
    let mut dropped = Vec::new();
    let moment = Moment {
        at: VirtualTime::ZERO,
        a: &a,
        a_view: &a_view,
        b: &b,
        b_view: &b_view,
        service_b,
    };
    let mut assigned = std::collections::BTreeMap::new();
    let mut onto_b = |name: &str, what: &str| match node_onto(&moment, name, "set", &mut assigned) {
        (_, Ok(node)) => Some(node),
        (_, Err(reason)) => {
            dropped.push(format!("{what} of {name}: {reason}"));
            None
        }
    };
    for clock in &scenario_a.clocks {
        if let Some(node) = onto_b(&clock.node, "the clock setting") {
            base.clocks.push(crate::scenario::types::ClockSpec {
                node,
                ..clock.clone()
            });
        }
    }
    for link in &scenario_a.network.links {
        let from = onto_b(&link.from, "the link setting");
        let to = onto_b(&link.to, "the link setting");
        if let (Some(from), Some(to)) = (from, to) {
            base.network.links.push(crate::scenario::types::LinkSpec {
                from,
                to,
                ..link.clone()
            });
        }
    }
    Ok((base, dropped))
}

/// "<A's id>-against-<service>", A's part shortened so that the whole fits a scenario id.
fn twin_id(id_a: &str, service_b: ChaosBackend) -> String {
    let tail = format!("-against-{}", service_b.id());
    let room = MAX_ID_LEN.saturating_sub(tail.len());
    // Ids are ASCII (lowercase letters, digits, '-'), so a byte cut is a character cut.
    let head = id_a.get(..room.min(id_a.len())).unwrap_or(id_a);
    format!("{}{tail}", head.trim_end_matches('-'))
}
