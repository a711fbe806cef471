//! The engine: a discrete-event simulation over virtual time.
//!
//! `Sim::step` pops the next due input from the queue, hands it to exactly one node (or applies
//! one intervention), applies the commands the node returned, judges the invariants and appends
//! one [`TraceEvent`]. The clock jumps from event to event; it never ticks. Everything random is
//! drawn from the one `SimRng`, in the order events are handled, so the same scenario, seed and
//! intervention log always give the same trace.
//!
//! The engine owns process state (running, paused, crashed) and clocks; nodes never learn that
//! they were paused except by reading their own clock afterwards — just like a real process.
//!
//! This file holds the state, its construction and the step loop; `impl Sim` continues by
//! concern in `delivery` (inputs to nodes), `interventions`, `process` (pause, crash, restart,
//! failover), `judgement` (the record and the invariants), `queries` and `snapshot`; `slot`
//! holds one node with its process and clock, and `build` makes the nodes.

mod build;
mod delivery;
mod interventions;
mod judgement;
mod process;
mod queries;
mod slot;
mod snapshot;

use crate::engine::invariant::InvariantChecker;
use crate::engine::queue::{Due, EventQueue};
use crate::engine::trace::{Cause, TraceEvent};
use crate::models::client::Protocol;
use crate::scenario::budget::RUN_BUDGET;
use crate::scenario::cast::Cast;
use crate::scenario::checked::CheckedScenario;
use crate::scenario::error::ScenarioError;
use crate::scenario::types::Scenario;
use crate::vocabulary::happening::Happening;
use crate::vocabulary::timer::TimerKind;
use crate::world::clock::LocalClock;
use crate::world::ids::NodeId;
use crate::world::intervention::Intervention;
use crate::world::network::{LinkBehaviour, Network};
use crate::world::node::Command;
use crate::world::rng::SimRng;
use crate::world::shared_log::SharedLog;
use crate::world::time::{Millis, VirtualTime};
use build::{build_network, build_slots};
pub use interventions::TooLate;
pub use slot::{Node, Process, Slot};
pub use snapshot::Snapshot;
use std::collections::BTreeMap;

/// The shortest a timer runs, by the setting node's clock.
pub const MIN_TIMER_SPAN: Millis = Millis(1);

#[derive(Clone, Copy, Debug)]
struct TimerRecord {
    kind: TimerKind,
    incarnation: u32,
    cancelled: bool,
}

/// A running (or finished) simulation of one scenario.
#[derive(Clone, Debug)]
pub struct Sim {
    cast: Cast,
    seed: u64,
    now: VirtualTime,
    end: VirtualTime,
    queue: EventQueue,
    rng: SimRng,
    network: Network,
    slots: Vec<Slot>,
    /// Every timer ever set, by id: shared between copies (see [`SharedLog`]).
    timers: SharedLog<TimerRecord>,
    interventions: Vec<Intervention>,
    checker: InvariantChecker,
    trace: Vec<TraceEvent>,
    commands: Vec<Command>,
    /// How many clients believe they hold the lock (see `refresh_belief`).
    believers: u32,
    /// How clients reach the lock service (one front node, or Redlock's majority).
    protocol: Protocol,
    /// How many due inputs the engine has handled, recorded or not (see [`RUN_BUDGET`]).
    handled: u64,
    /// Whether the run stopped because it used up its budget.
    budget_spent: bool,
    /// A service of one node: every request goes there, with no routing to work out.
    single_node_service: bool,
    /// Whether two holders could each have a live lease by the service's own rule (see
    /// `state_view`). Each service node answers for one holder at most, so this takes at least
    /// twice the quorum of nodes: never for a single node, never for Redlock's majority of N.
    /// Where it cannot happen, `one_lease` cannot break and the leases go uncounted.
    leases_can_clash: bool,
}

/// What handling one due input produced, before it becomes a trace event.
struct Handled {
    actor: NodeId,
    cause: Cause,
    happening: Happening,
}

impl Sim {
    /// Builds the run of `scenario` with its own seed and interventions.
    pub fn new(scenario: &Scenario) -> Result<Sim, ScenarioError> {
        Sim::with_log(scenario, scenario.seed, &[])
    }

    /// Builds the run of `scenario` with another seed and the user's interventions added to the
    /// scenario's own. The log is resolved against the scenario's cast; an entry naming an
    /// unknown node is an error that names it.
    pub fn with_log(
        scenario: &Scenario,
        seed: u64,
        log: &[Intervention<String>],
    ) -> Result<Sim, ScenarioError> {
        Sim::from_checked(scenario.check()?, seed, log)
    }

    /// Builds the run of a checked scenario with `seed` and the user's interventions added to
    /// the scenario's own: the one way into the engine, so a scenario is checked before any
    /// run and the engine never checks it again. Only the log can still be wrong (a name).
    pub fn from_checked(
        checked: CheckedScenario<'_>,
        seed: u64,
        log: &[Intervention<String>],
    ) -> Result<Sim, ScenarioError> {
        let scenario = checked.scenario();
        let cast = checked.into_cast();
        let mut interventions = Vec::with_capacity(scenario.interventions.len() + log.len());
        for (i, entry) in scenario.interventions.iter().chain(log).enumerate() {
            let path = format!("interventions[{i}].do");
            interventions.push(Intervention {
                at_ms: entry.at_ms,
                action: entry
                    .action
                    .clone()
                    .try_map(|name| cast.resolve(&name, &path))?,
            });
        }
        // Interventions are queued first, so that one due at the same millisecond as a node's
        // own input takes effect before it: "pause at t" means the node does nothing at t.
        let queue = EventQueue::with_upfront(interventions.iter().enumerate().map(|(i, entry)| {
            let index = u32::try_from(i).unwrap_or(u32::MAX);
            (entry.at_ms, Due::Intervention(index))
        }));
        let protocol = scenario.lock_service.protocol();
        let network = build_network(scenario, &cast)?;
        let mut sim = Sim {
            seed,
            now: VirtualTime::ZERO,
            end: VirtualTime(scenario.end_ms.0),
            queue,
            rng: SimRng::from_seed(seed),
            network,
            slots: build_slots(scenario, &cast),
            timers: SharedLog::new(),
            interventions,
            checker: InvariantChecker::default(),
            // A guess at the run's length, so the trace rarely has to move while it grows.
            trace: Vec::with_capacity(expected_events(scenario)),
            commands: Vec::new(),
            believers: 0,
            protocol,
            handled: 0,
            budget_spent: false,
            single_node_service: cast.services().count() == 1,
            leases_can_clash: cast.services().count() >= 2 * usize::from(quorum(protocol)),
            cast,
        };
        for clock in &scenario.clocks {
            if let Some(node) = sim.cast.find(&clock.node) {
                sim.slots[node.index()].clock = LocalClock::new(clock.offset_ms, clock.drift_ppm);
            }
        }
        for node in sim.cast.services().collect::<Vec<_>>() {
            sim.act_on(node, |node, ctx| {
                if let Node::LockService(service) = node {
                    service.start(ctx);
                }
            });
        }
        for (client, spec) in sim
            .cast
            .clients()
            .zip(&scenario.clients)
            .collect::<Vec<_>>()
        {
            let timer = sim.new_timer(client, TimerKind::Start);
            sim.queue
                .schedule(VirtualTime(spec.start_ms.0), Due::Timer(client, timer));
        }
        Ok(sim)
    }

    /// A simulation of nothing: no nodes, no events. What a view shows when no scenario could be
    /// loaded, so that it never has to invent one.
    pub fn idle() -> Sim {
        Sim {
            cast: Cast::default(),
            seed: 0,
            now: VirtualTime::ZERO,
            end: VirtualTime::ZERO,
            queue: EventQueue::default(),
            rng: SimRng::from_seed(0),
            network: Network::new(
                LinkBehaviour {
                    latency_min: Millis(0),
                    latency_max: Millis(0),
                    loss_per_million: 0,
                },
                BTreeMap::new(),
            ),
            slots: Vec::new(),
            timers: SharedLog::new(),
            interventions: Vec::new(),
            checker: InvariantChecker::default(),
            trace: Vec::new(),
            commands: Vec::new(),
            believers: 0,
            protocol: Protocol::Single,
            handled: 0,
            budget_spent: false,
            single_node_service: false,
            leases_can_clash: false,
        }
    }

    /// Handles the next event and returns it, or `None` when the run is over.
    pub fn step(&mut self) -> Option<&TraceEvent> {
        self.step_through(VirtualTime(u64::MAX))
    }

    /// Like [`Sim::step`], but handles no input due after `limit`: `None` when the next one is.
    fn step_through(&mut self, limit: VirtualTime) -> Option<&TraceEvent> {
        loop {
            if self.is_finished() || self.queue.peek_time().is_some_and(|t| t > limit) {
                return None;
            }
            if self.handled >= RUN_BUDGET {
                // The step never fails: the run just ends here, and says why.
                self.budget_spent = true;
                return None;
            }
            let (time, due) = self.queue.pop()?;
            self.handled += 1;
            self.now = time;
            let sent_before = self.network.messages().len();
            match self.handle(due) {
                // Bookkeeping (a heartbeat, a re-armed timer) changes nothing a reader sees.
                Some(Handled {
                    happening: Happening::Silent,
                    ..
                })
                | None => {}
                Some(handled) => return Some(self.record(handled, sent_before)),
            }
        }
    }

    /// Handles every event due at or before `time`.
    pub fn run_until(&mut self, time: VirtualTime) {
        while self.queue.peek_time().is_some_and(|t| t <= time) && self.step().is_some() {}
    }

    /// Handles every input due at or before `time` and none after, not even bookkeeping that
    /// [`Sim::run_until`] would pass through on its way to the next recorded event: the state is
    /// then the run's state at that moment (what a comparison reads roles from).
    pub fn run_through(&mut self, time: VirtualTime) {
        while self.step_through(time).is_some() {}
    }

    /// Runs to the end of the scenario.
    pub fn run_to_end(&mut self) {
        while self.step().is_some() {}
    }
}

/// How many service nodes must agree that a client holds the lock: a majority of Redlock's
/// nodes, or one front node.
fn quorum(protocol: Protocol) -> u8 {
    match protocol {
        Protocol::Redlock(params) => params.quorum(),
        Protocol::Single | Protocol::Session => 1,
    }
}

/// Busy runs (clients contending all the time) see about one event per client every 60 virtual
/// milliseconds. Capped, so that a long scenario does not reserve memory it may never use.
fn expected_events(scenario: &Scenario) -> usize {
    let per_client = usize::try_from(scenario.end_ms.0 / 60).unwrap_or(usize::MAX);
    per_client
        .saturating_mul(scenario.clients.len())
        .min(1 << 17)
}
