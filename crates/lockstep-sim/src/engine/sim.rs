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

use crate::engine::invariant::{InvariantChecker, StateView, ToldGrant};
use crate::engine::queue::{Due, EventQueue};
use crate::engine::trace::{Cause, TraceEvent, trace_hash};
use crate::models::client::{Client, ClientConfig, Protocol};
use crate::models::lock_service::{
    Backend, CacheLock, ConsensusConfig, GridMember, LockService, Replica, Replicated, Role,
    SqlRow, TokenSource,
};
use crate::models::resource::{Inventory, Payments, Register, Resource};
use crate::scenario::budget::{BudgetSpent, RUN_BUDGET};
use crate::scenario::cast::Cast;
use crate::scenario::checked::CheckedScenario;
use crate::scenario::error::ScenarioError;
use crate::scenario::types::LockServiceSpec;
use crate::scenario::types::ResourceSpec;
use crate::scenario::types::Scenario;
use crate::vocabulary::happening::{Direction, Happening, Input, NoEffect};
use crate::vocabulary::loss::Loss;
use crate::vocabulary::message::{AcquireReply, Payload};
use crate::vocabulary::timer::TimerKind;
use crate::vocabulary::timer::TimerSpan;
use crate::world::clock::LocalClock;
use crate::world::ids::{EventId, MessageId, NodeId, TimerId};
use crate::world::intervention::{Action, Intervention};
use crate::world::network::{Arrival, LinkBehaviour, Network};
use crate::world::node::{Command, Ctx};
use crate::world::rng::SimRng;
use crate::world::shared_log::SharedLog;
use crate::world::time::{Millis, VirtualTime};
use crate::world::token::FencingToken;
use std::collections::{BTreeMap, VecDeque};

/// The shortest a timer runs, by the setting node's clock.
pub const MIN_TIMER_SPAN: Millis = Millis(1);

/// The state machine behind one node of the cast.
#[derive(Clone, Debug)]
pub enum Node {
    LockService(LockService),
    Resource(Resource),
    Client(Client),
}

/// Whether a node's process is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Process {
    Running,
    Paused { since: VirtualTime, epoch: u32 },
    Crashed { since: VirtualTime },
}

/// One node with what the engine keeps around it.
#[derive(Clone, Debug)]
pub struct Slot {
    pub node: Node,
    pub clock: LocalClock,
    pub process: Process,
    /// Inputs that arrived while the process was paused, handed over in order on resume.
    pub buffer: VecDeque<Input>,
    /// Counts crashes: timers set before the latest crash never fire.
    incarnation: u32,
    pauses: u32,
    /// Whether this node, a client, believed it held the lock after the last event it acted in.
    believes: bool,
}

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

/// A simulation stopped after its first `events` events, without its trace: the trace of those
/// events is the complete run's first `events` (the same input gives the same events), so it is
/// copied from there when the simulation resumes. Going back to any position is then resuming
/// the last snapshot before it and stepping on, not replaying the run from the start.
#[derive(Clone, Debug)]
pub struct Snapshot {
    events: usize,
    sim: Sim,
}

impl Snapshot {
    /// How many events had happened when the snapshot was taken.
    pub fn events(&self) -> usize {
        self.events
    }

    /// The simulation as it stood, with its trace copied from `trace` — the trace of the same
    /// run, at least as long as the snapshot's. `None` if it is shorter.
    pub fn resume(&self, trace: &[TraceEvent]) -> Option<Sim> {
        let past = trace.get(..self.events)?;
        let mut sim = self.sim.clone();
        sim.trace = Vec::with_capacity(trace.len());
        sim.trace.extend_from_slice(past);
        Some(sim)
    }
}

/// An intervention added for a moment the run has already reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLate {
    pub at: VirtualTime,
    pub now: VirtualTime,
}

impl std::fmt::Display for TooLate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "an intervention at {} ms comes too late: the run is at {} ms",
            self.at.0, self.now.0
        )
    }
}

impl std::error::Error for TooLate {}

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

    pub fn cast(&self) -> &Cast {
        &self.cast
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn now(&self) -> VirtualTime {
        self.now
    }

    pub fn end(&self) -> VirtualTime {
        self.end
    }

    pub fn trace(&self) -> &[TraceEvent] {
        &self.trace
    }

    pub fn network(&self) -> &Network {
        &self.network
    }

    pub fn slot(&self, node: NodeId) -> Option<&Slot> {
        self.slots.get(node.index())
    }

    pub fn interventions(&self) -> &[Intervention] {
        &self.interventions
    }

    pub fn hash(&self) -> String {
        trace_hash(&self.trace)
    }

    /// Whether nothing is left to happen before the end of the run, or the run used up its
    /// budget.
    pub fn is_finished(&self) -> bool {
        self.budget_spent || self.queue.peek_time().is_none_or(|t| t > self.end)
    }

    /// Whether the run stopped early, at [`RUN_BUDGET`] inputs, and when.
    pub fn stopped_by_budget(&self) -> Option<BudgetSpent> {
        self.budget_spent.then_some(BudgetSpent {
            at: self.now,
            end: self.end,
        })
    }

    /// How many due inputs the engine has handled so far, the silent ones included.
    pub fn inputs_handled(&self) -> u64 {
        self.handled
    }

    /// The value the resource holds now.
    pub fn resource_value(&self) -> i64 {
        match self
            .slots
            .get(self.cast.resource().index())
            .map(|slot| &slot.node)
        {
            Some(Node::Resource(resource)) => resource.value(),
            _ => 0,
        }
    }

    /// When the next input is due, if any is queued.
    pub fn next_due(&self) -> Option<VirtualTime> {
        self.queue.peek_time()
    }

    /// Adds an intervention while the run goes on, as if the log had held it from the start:
    /// from here the run is the one [`Sim::with_log`] gives with `entry` appended to the log
    /// (the counterexample search's way to strike a fault). Only a moment after `now` can be
    /// changed so; an earlier one is refused.
    pub fn add_intervention(&mut self, entry: Intervention) -> Result<(), TooLate> {
        if entry.at_ms <= self.now {
            return Err(TooLate {
                at: entry.at_ms,
                now: self.now,
            });
        }
        let ordinal = u32::try_from(self.interventions.len()).unwrap_or(u32::MAX);
        self.queue
            .add_upfront(entry.at_ms, ordinal, Due::Intervention(ordinal));
        self.interventions.push(entry);
        Ok(())
    }

    /// Writes everything that decides the rest of the run — the nodes, clocks, processes,
    /// queue, network, random stream, interventions and the invariants' memory — and nothing of
    /// the past that does not (the trace, the count of inputs handled). Two simulations that
    /// write the same text go on the same way: the search hashes it to skip states seen before.
    pub fn write_state(&self, out: &mut impl std::fmt::Write) -> std::fmt::Result {
        write!(
            out,
            "{:?}{:?}{}{:?}{:?}{:?}{:?}{:?}{}{}",
            self.now,
            self.queue,
            self.rng.position(),
            self.network,
            self.slots,
            self.timers,
            self.interventions,
            self.checker,
            self.believers,
            self.budget_spent,
        )
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

    /// This simulation as it stands, kept to resume later (see [`Snapshot`]). Copies the state
    /// of the nodes and the queue, and shares the network's and the timers' records; the trace
    /// is left out.
    pub fn snapshot(&mut self) -> Snapshot {
        let trace = std::mem::take(&mut self.trace);
        let sim = self.clone();
        self.trace = trace;
        Snapshot {
            events: self.trace.len(),
            sim,
        }
    }

    fn handle(&mut self, due: Due) -> Option<Handled> {
        match due {
            Due::Delivery(id) => match self.network.arrive(id, self.now)? {
                Arrival::Delivered { to } => {
                    self.offer(to, Input::Message(id), Cause::Input(Input::Message(id)))
                }
                // Replication traffic lost on the way is the replicas' business, not the story.
                Arrival::Lost {
                    replication: true, ..
                } => None,
                Arrival::Lost { to, why, .. } => Some(Handled {
                    actor: to,
                    cause: Cause::Input(Input::Message(id)),
                    happening: Happening::Lost {
                        node: to,
                        message: id,
                        why,
                    },
                }),
            },
            Due::Timer(node, id) => {
                let timer = *self.timers.get(id.0 as usize)?;
                let incarnation = self.slots.get(node.index())?.incarnation;
                if timer.cancelled || timer.incarnation != incarnation {
                    return None;
                }
                let input = Input::Timer(id, timer.kind);
                self.offer(node, input, Cause::Input(input))
            }
            Due::Intervention(index) => {
                let action = self.interventions.get(index as usize)?.action.clone();
                Some(self.intervene(action, Cause::Intervention(index)))
            }
            Due::PauseEnds(node, epoch) => match self.slots.get(node.index())?.process {
                Process::Paused { epoch: e, .. } if e == epoch => {
                    Some(self.resume(node, Cause::PauseEnded))
                }
                _ => None,
            },
            Due::Drain(node) => {
                let slot = self.slots.get_mut(node.index())?;
                if slot.process != Process::Running {
                    return None;
                }
                let input = slot.buffer.pop_front()?;
                Some(self.dispatch(node, input, Cause::Resumed(input)))
            }
            Due::Restart(node, incarnation) => {
                let slot = self.slots.get(node.index())?;
                let still_down = matches!(slot.process, Process::Crashed { .. })
                    && slot.incarnation == incarnation;
                still_down.then(|| Handled {
                    actor: node,
                    cause: Cause::DelayedRestart,
                    happening: self.restart(node),
                })
            }
            Due::Failover(node, incarnation) => {
                let slot = self.slots.get(node.index())?;
                let still_down = matches!(slot.process, Process::Crashed { .. })
                    && slot.incarnation == incarnation
                    && matches!(&slot.node, Node::LockService(s) if s.is_front());
                still_down.then(|| {
                    let (actor, happening) = self.failover();
                    Handled {
                        actor,
                        cause: Cause::Monitor,
                        happening,
                    }
                })
            }
        }
    }

    /// Gives an input to a node, unless its process cannot take it now.
    fn offer(&mut self, node: NodeId, input: Input, cause: Cause) -> Option<Handled> {
        let slot = self.slots.get_mut(node.index())?;
        match slot.process {
            Process::Running => Some(self.dispatch(node, input, cause)),
            Process::Paused { .. } => {
                slot.buffer.push_back(input);
                Some(Handled {
                    actor: node,
                    cause,
                    happening: Happening::Buffered { node, input },
                })
            }
            Process::Crashed { .. } => match input {
                Input::Message(message)
                    if matches!(
                        self.network.message(message).map(|m| m.payload),
                        Some(Payload::Raft(_))
                    ) =>
                {
                    self.network.lose_to_crash(message, self.now);
                    None
                }
                Input::Message(message) => {
                    self.network.lose_to_crash(message, self.now);
                    Some(Handled {
                        actor: node,
                        cause,
                        happening: Happening::Lost {
                            node,
                            message,
                            why: Loss::ReceiverCrashed,
                        },
                    })
                }
                Input::Timer(..) => None,
            },
        }
    }

    fn dispatch(&mut self, node: NodeId, input: Input, cause: Cause) -> Handled {
        let mut commands = std::mem::take(&mut self.commands);
        let mut next_timer = u32::try_from(self.timers.len()).unwrap_or(u32::MAX);
        let slot = &mut self.slots[node.index()];
        let message = match input {
            Input::Message(id) => Some(id),
            Input::Timer(..) => None,
        };
        let mut ctx = Ctx::new(
            self.now,
            slot.clock.read(self.now),
            node,
            message,
            &mut commands,
            &mut next_timer,
        );
        let happening = match input {
            Input::Message(id) => match self.network.message(id) {
                Some(message) => {
                    let (from, payload) = (message.from, message.payload);
                    match &mut slot.node {
                        Node::LockService(service) => service.on_message(&mut ctx, from, payload),
                        Node::Resource(resource) => resource.on_message(&mut ctx, from, payload),
                        Node::Client(client) => client.on_message(&mut ctx, from, payload),
                    }
                }
                None => Happening::Ignored {
                    node,
                    message: None,
                },
            },
            Input::Timer(timer, kind) => match &mut slot.node {
                Node::Client(client) => client.on_timer(&mut ctx, timer, kind),
                Node::LockService(service) => service.on_timer(&mut ctx, timer, kind),
                Node::Resource(_) => Happening::Ignored {
                    node,
                    message: None,
                },
            },
        };
        self.apply(node, &mut commands);
        self.commands = commands;
        Handled {
            actor: node,
            cause,
            happening,
        }
    }

    fn apply(&mut self, node: NodeId, commands: &mut Vec<Command>) {
        for command in commands.drain(..) {
            match command {
                Command::Send { to, payload } => {
                    let (id, due) = self
                        .network
                        .send(&mut self.rng, self.now, node, to, payload);
                    self.queue.schedule(due, Due::Delivery(id));
                }
                Command::SendToService { payload } => {
                    let to = self.front_for(node);
                    let (id, due) = self
                        .network
                        .send(&mut self.rng, self.now, node, to, payload);
                    self.queue.schedule(due, Due::Delivery(id));
                }
                Command::SetTimer { id, span, kind } => {
                    let created = self.new_timer(node, kind);
                    debug_assert_eq!(created, id, "timer ids are handed out in order");
                    let local = match span {
                        TimerSpan::Fixed(span) => span,
                        TimerSpan::Between(low, high) => Millis(self.rng.between(low.0, high.0)),
                    };
                    // A timer never fires at the moment it is set: a node that re-arms a
                    // zero-length timer (a retry after 0 ms, a renewal every TTL/3 of a 2 ms
                    // lease) would otherwise loop at one virtual millisecond for ever.
                    let local = local.max(MIN_TIMER_SPAN);
                    let span = self.slots[node.index()].clock.true_span(local);
                    self.queue
                        .schedule(self.now.after(span), Due::Timer(node, created));
                }
                Command::CancelTimer(id) => {
                    if let Some(timer) = self.timers.get_mut(id.0 as usize) {
                        timer.cancelled = true;
                    }
                }
            }
        }
    }

    /// Where the lock service answers `sender` now: the first front node (the single node, the
    /// primary of a pair, any grid member) that is up and that `sender` can reach, else the first
    /// front node. Clients find it as a client library would, through discovery the simulation
    /// does not model.
    fn front_for(&self, sender: NodeId) -> NodeId {
        if self.single_node_service {
            return self.cast.lock_service();
        }
        let front = |node: &NodeId| matches!(self.slots.get(node.index()), Some(Slot { node: Node::LockService(s), .. }) if s.is_front());
        let usable = |node: &NodeId| {
            front(node)
                && !matches!(self.slots[node.index()].process, Process::Crashed { .. })
                && !self.network.is_cut(sender, *node)
        };
        self.cast
            .services()
            .find(usable)
            .or_else(|| self.cast.services().find(front))
            .unwrap_or(self.cast.lock_service())
    }

    fn new_timer(&mut self, node: NodeId, kind: TimerKind) -> TimerId {
        let id = TimerId(u32::try_from(self.timers.len()).unwrap_or(u32::MAX));
        self.timers.push(TimerRecord {
            kind,
            incarnation: self.slots[node.index()].incarnation,
            cancelled: false,
        });
        id
    }

    fn intervene(&mut self, action: Action<NodeId>, cause: Cause) -> Handled {
        let now = self.now;
        let (actor, happening) = match action {
            Action::Pause { node, for_ms } => (node, self.pause(node, for_ms)),
            Action::Resume { node } => match self.slots[node.index()].process {
                Process::Paused { .. } => return self.resume(node, cause),
                _ => (node, no_effect(NoEffect::NotPaused)),
            },
            Action::Crash { node } => (node, self.crash(node)),
            Action::Restart { node } => (node, self.restart(node)),
            Action::ClockJump { node, by_ms } => (node, self.jump_clock(node, by_ms)),
            Action::ClockDrift { node, drift_ppm } => {
                self.slots[node.index()].clock.set_drift(now, drift_ppm);
                (node, Happening::DriftChanged { node, drift_ppm })
            }
            Action::Partition {
                from,
                to,
                direction,
            } => (from, self.partition(from, to, direction)),
            Action::Heal { a, b } => {
                self.network.heal(a, b);
                (a, Happening::Healed { a, b })
            }
            Action::Hold { message } => self.on_message_of(message, |network| {
                if network.hold(message, now) {
                    Happening::MessageHeld { message }
                } else {
                    no_effect(NoEffect::MessageNotInFlight)
                }
            }),
            Action::Release { message } => self.release_message(message),
            Action::Drop { message } => self.on_message_of(message, |network| {
                if network.drop_message(message, now) {
                    Happening::MessageDropped { message }
                } else {
                    no_effect(NoEffect::MessageNotInFlight)
                }
            }),
            Action::Failover {} => self.failover(),
            Action::ForceExpire {} => (self.cast.lock_service(), self.force_expire()),
        };
        Handled {
            actor,
            cause,
            happening,
        }
    }

    /// A node's clock jumps. A service node expires keys by its own clock: a jump moves every
    /// expiry.
    fn jump_clock(&mut self, node: NodeId, by_ms: i64) -> Happening {
        self.slots[node.index()].clock.jump(by_ms);
        self.act_on(node, |node, ctx| {
            if let Node::LockService(service) = node {
                service.rearm_expiry(ctx);
            }
        });
        Happening::ClockJumped { node, by_ms }
    }

    /// Cuts the link from `from` to `to`, and back too if `direction` says both.
    fn partition(&mut self, from: NodeId, to: NodeId, direction: Direction) -> Happening {
        self.network.cut(from, to);
        if direction == Direction::Both {
            self.network.cut(to, from);
        }
        Happening::Partitioned {
            from,
            to,
            direction,
        }
    }

    /// A held message goes on its way now.
    fn release_message(&mut self, message: MessageId) -> (NodeId, Happening) {
        let now = self.now;
        let released = self.network.release(message, now);
        if released {
            self.queue.schedule(now, Due::Delivery(message));
        }
        self.on_message_of(message, |_| {
            if released {
                Happening::MessageReleased { message }
            } else {
                no_effect(NoEffect::MessageNotHeld)
            }
        })
    }

    /// The teaching control: the lease ends wherever the service keeps it (every node of a
    /// replicated one).
    fn force_expire(&mut self) -> Happening {
        let mut holder = None;
        for node in self.cast.services().collect::<Vec<_>>() {
            self.act_on(node, |node, ctx| {
                if let Node::LockService(service) = node {
                    holder = holder.or(service.force_expire(ctx));
                }
            });
        }
        holder.map_or(no_effect(NoEffect::NoLiveLease), |holder| {
            Happening::LeaseForcedToExpire { holder }
        })
    }

    /// Applies `act` to the network if the message exists; the actor is the message's sender.
    fn on_message_of(
        &mut self,
        message: MessageId,
        act: impl FnOnce(&mut Network) -> Happening,
    ) -> (NodeId, Happening) {
        match self.network.message(message).map(|m| m.from) {
            Some(from) => (from, act(&mut self.network)),
            None => (self.cast.lock_service(), no_effect(NoEffect::NoSuchMessage)),
        }
    }

    fn pause(&mut self, node: NodeId, for_ms: Option<Millis>) -> Happening {
        let now = self.now;
        let slot = &mut self.slots[node.index()];
        match slot.process {
            Process::Paused { .. } => return no_effect(NoEffect::AlreadyPaused),
            Process::Crashed { .. } => return no_effect(NoEffect::AlreadyCrashed),
            Process::Running => {}
        }
        slot.pauses += 1;
        let epoch = slot.pauses;
        slot.process = Process::Paused { since: now, epoch };
        if let Some(span) = for_ms {
            self.queue
                .schedule(now.after(span), Due::PauseEnds(node, epoch));
        }
        Happening::Paused { node, for_ms }
    }

    fn resume(&mut self, node: NodeId, cause: Cause) -> Handled {
        let now = self.now;
        let slot = &mut self.slots[node.index()];
        let since = match slot.process {
            Process::Paused { since, .. } => since,
            _ => now,
        };
        slot.process = Process::Running;
        let waiting = slot.buffer.len();
        for _ in 0..waiting {
            self.queue.schedule(now, Due::Drain(node));
        }
        Handled {
            actor: node,
            cause,
            happening: Happening::Resumed {
                node,
                paused_for: now.since(since),
                waiting: u32::try_from(waiting).unwrap_or(u32::MAX),
            },
        }
    }

    fn crash(&mut self, node: NodeId) -> Happening {
        let now = self.now;
        let slot = &mut self.slots[node.index()];
        if matches!(slot.process, Process::Crashed { .. }) {
            return no_effect(NoEffect::AlreadyCrashed);
        }
        slot.process = Process::Crashed { since: now };
        slot.incarnation += 1;
        slot.buffer.clear();
        let incarnation = slot.incarnation;
        let local = slot.clock.read(now);
        let (mut lost, mut forgot_token) = (None, None);
        match &mut slot.node {
            Node::Client(client) => client.crash(),
            Node::Resource(resource) => forgot_token = resource.crash(),
            Node::LockService(service) => {
                lost = service.crash(local);
                if let Backend::Replicated(Replicated {
                    role: Role::Primary,
                    failover_after,
                    ..
                }) = &service.backend
                {
                    let at = now.after(*failover_after);
                    self.queue.schedule(at, Due::Failover(node, incarnation));
                }
            }
        }
        Happening::Crashed {
            node,
            lost,
            forgot_token,
        }
    }

    fn restart(&mut self, node: NodeId) -> Happening {
        let slot = &self.slots[node.index()];
        let Process::Crashed { since } = slot.process else {
            return no_effect(NoEffect::NotCrashed);
        };
        if let Node::LockService(service) = &slot.node {
            let until = since.after(service.restart_delay());
            if until > self.now {
                self.queue
                    .schedule(until, Due::Restart(node, slot.incarnation));
                return Happening::RestartDelayed { node, until };
            }
        }
        self.slots[node.index()].process = Process::Running;
        self.act_on(node, |node, ctx| match node {
            Node::Client(client) => client.restart(ctx),
            Node::LockService(service) => service.restart(ctx),
            Node::Resource(_) => {}
        });
        Happening::Restarted { node }
    }

    /// Lets the engine act on a node's state machine outside of an input (a restart, a
    /// promotion), with a context, and applies the commands it gives.
    fn act_on(&mut self, node: NodeId, act: impl FnOnce(&mut Node, &mut Ctx<'_>)) {
        let mut commands = std::mem::take(&mut self.commands);
        let mut next_timer = u32::try_from(self.timers.len()).unwrap_or(u32::MAX);
        let slot = &mut self.slots[node.index()];
        let mut ctx = Ctx::new(
            self.now,
            slot.clock.read(self.now),
            node,
            None,
            &mut commands,
            &mut next_timer,
        );
        act(&mut slot.node, &mut ctx);
        self.apply(node, &mut commands);
        self.commands = commands;
    }

    /// The monitor promotes a running replica in place of the current primary. Returns the
    /// actor (the new primary) and what happened.
    fn failover(&mut self) -> (NodeId, Happening) {
        let now = self.now;
        let replicated = |slot: &Slot| match &slot.node {
            Node::LockService(LockService {
                backend: Backend::Replicated(node),
                ..
            }) => Some(node.clone()),
            _ => None,
        };
        let mut primary = None;
        let mut replica = None;
        for node in self.cast.services() {
            let slot = &self.slots[node.index()];
            match replicated(slot) {
                Some(n) if n.role == Role::Primary => {
                    primary = Some((node, n, slot.clock.read(now)))
                }
                Some(n)
                    if n.role == Role::Replica
                        && !matches!(slot.process, Process::Crashed { .. }) =>
                {
                    replica = replica.or(Some((node, n, slot.clock.read(now))));
                }
                _ => {}
            }
        }
        let (Some((from, old, old_clock)), Some((to, new, new_clock))) = (primary, replica) else {
            return (self.cast.lock_service(), no_effect(NoEffect::NoReplica));
        };
        let had = old.store.live_entry(old_clock).map(|e| e.owner);
        let has = new.store.live_entry(new_clock).map(|e| e.owner);
        let lost = had.filter(|holder| has != Some(*holder));
        for (node, role) in [(from, Role::Replica), (to, Role::Primary)] {
            self.act_on(node, |node, ctx| {
                if let Node::LockService(service) = node {
                    service.set_role(ctx, role);
                }
            });
        }
        (to, Happening::FailedOver { from, to, lost })
    }

    fn record(&mut self, handled: Handled, sent_before: usize) -> &TraceEvent {
        self.refresh_belief(handled.actor);
        let view = self.state_view();
        let cast = &self.cast;
        let told = self
            .network
            .messages()
            .iter_from(sent_before)
            .filter(|m| cast.is_service(m.from))
            .filter_map(|m| match m.payload {
                Payload::AcquireReply {
                    reply: AcquireReply::Granted { token: Some(token) },
                    ..
                } => Some(ToldGrant {
                    client: m.to,
                    token,
                }),
                _ => None,
            });
        let verdict = self.checker.judge(&handled.happening, told, view);
        let id = EventId(u32::try_from(self.trace.len()).unwrap_or(u32::MAX));
        let sent = self.network.messages().len().saturating_sub(sent_before);
        let sent = u16::try_from(sent).unwrap_or(u16::MAX);
        let first_sent = u32::try_from(sent_before).unwrap_or(u32::MAX);
        self.trace.push(TraceEvent {
            id,
            time: self.now,
            actor: handled.actor,
            cause: handled.cause,
            happening: handled.happening,
            first_sent: MessageId(first_sent),
            sent,
            violated: verdict.violated,
            broke: verdict.broke,
        });
        &self.trace[self.trace.len() - 1]
    }

    /// Only the actor of an event can change its own belief (a client changes it by handling an
    /// input, or by crashing), so the count of believers is kept up to date from the actor alone
    /// instead of asking every client after every event.
    fn refresh_belief(&mut self, actor: NodeId) {
        let Some(slot) = self.slots.get_mut(actor.index()) else {
            return;
        };
        let believes = matches!(&slot.node, Node::Client(c) if c.believes_it_holds_the_lock());
        if believes != slot.believes {
            slot.believes = believes;
            if believes {
                self.believers += 1;
            } else {
                self.believers -= 1;
            }
        }
        debug_assert_eq!(
            self.believers as usize,
            self.slots
                .iter()
                .filter(
                    |slot| matches!(&slot.node, Node::Client(c) if c.believes_it_holds_the_lock())
                )
                .count(),
            "a node other than the actor changed its belief"
        );
    }

    fn state_view(&self) -> StateView {
        let live_leases = if self.leases_can_clash {
            self.live_leases()
        } else {
            debug_assert!(self.live_leases() <= 1, "two holders where one can be");
            0
        };
        StateView {
            believers: self.believers,
            live_leases,
        }
    }

    fn live_leases(&self) -> u32 {
        u32::try_from(self.holders().count()).unwrap_or(u32::MAX)
    }

    /// Who holds the lock now, in the lock service's own terms: the one client with a live lease
    /// on a majority of Redlock's nodes or at a front node; `None` if nobody does, or if more
    /// than one does (the service then gives no single answer).
    pub fn lock_holder(&self) -> Option<NodeId> {
        let mut holders = self.holders();
        match (holders.next(), holders.next()) {
            (Some(holder), None) => Some(holder),
            _ => None,
        }
    }

    /// Every client with a live lease on enough service nodes to count.
    fn holders(&self) -> impl Iterator<Item = NodeId> {
        let (counts, distinct) = self.lease_counts();
        let quorum = quorum(self.protocol);
        counts
            .into_iter()
            .take(distinct)
            .filter(move |&(_, count)| count >= quorum)
            .map(|(holder, _)| holder)
    }

    /// For each client with a live lease, on how many service nodes it has one.
    fn lease_counts(&self) -> ([(NodeId, u8); 8], usize) {
        // Who holds a live lease, in the service's own terms: a client holding keys on a
        // majority of Redlock's nodes, or the holder at a front node (a single node, or the
        // primary of a pair; a crashed node's copy or a lagging replica's is no lease).
        // At most one entry per service node (seven at most): counted on the stack, since this
        // runs after every event.
        let mut counts = [(NodeId(0), 0u8); 8];
        let mut distinct = 0;
        for node in self.cast.services() {
            if let Some(Slot {
                node: Node::LockService(service),
                clock,
                process: Process::Running | Process::Paused { .. },
                ..
            }) = self.slots.get(node.index())
                && service.is_front()
                && let Some((holder, _)) = service.live_lease(clock.read(self.now))
            {
                match counts[..distinct].iter().position(|(h, _)| *h == holder) {
                    Some(at) => counts[at].1 += 1,
                    None if distinct < counts.len() => {
                        counts[distinct] = (holder, 1);
                        distinct += 1;
                    }
                    None => {}
                }
            }
        }
        (counts, distinct)
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

fn no_effect(why: NoEffect) -> Happening {
    Happening::NoEffect { why }
}

fn build_network(scenario: &Scenario, cast: &Cast) -> Result<Network, ScenarioError> {
    let spec = &scenario.network;
    let behaviour = |latency: [u64; 2], loss| LinkBehaviour {
        latency_min: Millis(latency[0]),
        latency_max: Millis(latency[1]),
        loss_per_million: loss,
    };
    let mut links = BTreeMap::new();
    for (i, link) in spec.links.iter().enumerate() {
        let from = cast.resolve(&link.from, &format!("network.links[{i}].from"))?;
        let to = cast.resolve(&link.to, &format!("network.links[{i}].to"))?;
        links.insert(
            (from, to),
            behaviour(link.latency_ms, link.loss_per_million),
        );
    }
    Ok(Network::new(
        behaviour(spec.latency_ms, spec.loss_per_million),
        links,
    ))
}

/// Every node of the scenario, in `NodeId` order: the service's, the resource, the clients.
fn build_slots(scenario: &Scenario, cast: &Cast) -> Vec<Slot> {
    let services = build_services(&scenario.lock_service, cast);
    let resource = build_resource(&scenario.resource);
    let protocol = scenario.lock_service.protocol();
    let clients = cast.clients().zip(&scenario.clients).map(|(me, spec)| {
        Node::Client(Client::new(ClientConfig {
            me,
            protocol,
            resource: cast.resource(),
            locking: spec.locking,
            ttl: spec.ttl_ms,
            work: spec.work_ms,
            access: spec.access,
            retry: spec.retry,
            release: spec.release,
            lease_check: spec.lease_check,
            renewal: spec.renewal,
            repeat: spec.repeat,
            timeout: spec.timeout,
            local_deadline: spec.local_deadline,
        }))
    });
    services
        .into_iter()
        .map(Node::LockService)
        .chain([Node::Resource(resource)])
        .chain(clients)
        .map(|node| Slot {
            node,
            clock: LocalClock::default(),
            process: Process::Running,
            buffer: VecDeque::new(),
            incarnation: 0,
            pauses: 0,
            believes: false,
        })
        .collect()
}

/// The lock service's nodes, one per name the cast gives it.
fn build_services(spec: &LockServiceSpec, cast: &Cast) -> Vec<LockService> {
    match spec {
        LockServiceSpec::SqlRow {
            lock_name,
            last_token,
        } => vec![LockService::new(Backend::SqlRow(SqlRow::new(
            lock_name.clone(),
            FencingToken(*last_token),
        )))],
        LockServiceSpec::Cache {
            key,
            tokens,
            last_token,
        } => vec![LockService::new(Backend::Cache(CacheLock::new(
            key.clone(),
            *tokens,
            FencingToken(*last_token),
        )))],
        LockServiceSpec::Redlock {
            persistence,
            restart_delay_ms,
            ..
        } => cast
            .services()
            .map(|_| {
                let mut store =
                    CacheLock::new("lock".to_owned(), TokenSource::None, FencingToken(0));
                store.persistence = *persistence;
                store.restart_delay = *restart_delay_ms;
                LockService::new(Backend::Cache(store))
            })
            .collect(),
        LockServiceSpec::Consensus {
            replicas,
            heartbeat_ms,
            election_timeout_ms,
            lock_delay_ms,
            waiters,
            bug,
            // The system only names the replicas (`LockServiceSpec::node_names`).
            system: _,
        } => {
            let config = ConsensusConfig {
                replicas: *replicas,
                heartbeat: *heartbeat_ms,
                election_timeout: *election_timeout_ms,
                lock_delay: *lock_delay_ms,
                waiters: *waiters,
                bug: *bug,
            };
            (0..*replicas)
                .map(|me| LockService::new(Backend::Consensus(Replica::new(me, config))))
                .collect()
        }
        LockServiceSpec::DataGrid { members } => cast
            .services()
            .map(|_| {
                LockService::new(Backend::Grid(GridMember {
                    store: CacheLock::new("lock".to_owned(), TokenSource::None, FencingToken(0)),
                    members: *members,
                }))
            })
            .collect(),
        LockServiceSpec::ReplicatedCache {
            key,
            tokens,
            last_token,
            failover_after_ms,
            replication_lag_ms,
        } => replicated_pair(
            cast,
            key,
            *tokens,
            *last_token,
            *failover_after_ms,
            *replication_lag_ms,
        ),
    }
}

/// A replicated cache's primary and replica, each the other's peer.
fn replicated_pair(
    cast: &Cast,
    key: &str,
    tokens: TokenSource,
    last_token: u64,
    failover_after: Millis,
    lag: Millis,
) -> Vec<LockService> {
    let mut pair = cast.services();
    let (primary, replica) = (
        pair.next().unwrap_or(NodeId(0)),
        pair.next().unwrap_or(NodeId(1)),
    );
    [(Role::Primary, replica), (Role::Replica, primary)]
        .into_iter()
        .map(|(role, peer)| {
            LockService::new(Backend::Replicated(Replicated {
                role,
                store: CacheLock::new(key.to_owned(), tokens, FencingToken(last_token)),
                peer,
                failover_after,
                lag,
                shipping: None,
            }))
        })
        .collect()
}

/// The resource node.
fn build_resource(spec: &ResourceSpec) -> Resource {
    match spec {
        ResourceSpec::Register {
            fencing,
            initial_value,
            token_memory,
        } => Resource::Register(Register::new(*fencing, *token_memory, *initial_value)),
        ResourceSpec::Inventory {
            fencing,
            sku,
            quantity,
        } => Resource::Inventory(Inventory::new(*fencing, sku.clone(), *quantity)),
        ResourceSpec::Payments { idempotency } => Resource::Payments(Payments::new(*idempotency)),
    }
}
