//! One complete run of a scenario, with what the timeline needs beyond the trace: who each lock
//! service node thought held a live lease, and whether each client believed it held the lock,
//! after every event.
//!
//! The trace records what happened; truth and belief are *state*, read from the nodes while the
//! run is replayed once, event by event. Only changes are kept, so a run of 10,000 events keeps
//! a few hundred samples. This module reads the simulation; it must not decide anything the
//! simulation decides (who holds the lock is `Sim::lock_holder`, a node's lease
//! `LockService::live_lease` — or, while no consensus leader serves, the one it keeps,
//! `LockService::stored_lease` —, belief `Client::believes_it_holds_the_lock`).

use crate::in_place::verdict::Verdict;
use lockstep_sim::engine::sim::{Node, Process, Sim, Snapshot};
use lockstep_sim::models::lock_service::LockService;
use lockstep_sim::scenario::error::ScenarioError;
use lockstep_sim::scenario::types::Scenario;
use lockstep_sim::story::outcome::RunOutcome;
use lockstep_sim::vocabulary::happening::Request;
use lockstep_sim::world::ids::NodeId;
use lockstep_sim::world::intervention::Intervention;
use lockstep_sim::world::time::LocalTime;
use lockstep_sim::world::token::FencingToken;
use std::cell::OnceCell;

/// A lease as one service node sees it: the holder and the token it was granted with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lease {
    pub holder: NodeId,
    pub token: Option<FencingToken>,
    pub standing: Standing,
}

/// Whether a node answers for the lease, or only keeps it while no node answers for anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// The node answers for it now (`LockService::live_lease`).
    Served,
    /// A consensus replica keeps it in its log while no leader serves the lock
    /// (`LockService::stored_lease`): the lease has not ended, nobody answers for it yet.
    Stored,
}

/// After the event with index `event`, `node` saw `lease` (or no live lease).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaseChange {
    pub event: usize,
    pub node: NodeId,
    pub lease: Option<Lease>,
}

/// After the event with index `event`, `client` believed it held the lock with `token`
/// (`Some`), or stopped believing it (`None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BeliefChange {
    pub event: usize,
    pub client: NodeId,
    pub belief: Option<Option<FencingToken>>,
}

/// A finished run and the state changes it went through.
#[derive(Clone, Debug)]
pub struct Run {
    /// The simulation run to its end: its trace, network record and final state.
    pub sim: Sim,
    pub leases: Vec<LeaseChange>,
    pub beliefs: Vec<BeliefChange>,
    /// After the event with index `.0`, the lock service said `.1` held the lock
    /// (`Sim::lock_holder`): only changes are kept.
    holders: Vec<(usize, Option<NodeId>)>,
    /// The trace's hash, computed when first asked for and kept: it serialises every event, too
    /// dear for every render, and a view that never shows it (an embed) never pays for it,
    /// in time or in the serialiser's code in its binary.
    hash: OnceCell<String>,
    /// The events that broke an invariant, found once: the transport shows their count and
    /// jumps between them.
    violations: Vec<usize>,
    /// How the run ended at the resource, in sentences (`RunOutcome`), computed once.
    outcome: Vec<String>,
    /// The same in one line, for beside the timeline (`in_place::verdict`).
    verdict: Verdict,
    /// The simulation at its start and then every `SNAPSHOT_EVERY` events or more
    /// (`snapshots[i]` after `i` times the spacing), taken while the run is recorded: going
    /// anywhere replays at most the spacing (see [`Run::sim_at`]). At most `MAX_SNAPSHOTS`.
    snapshots: Vec<Snapshot>,
}

/// How many events apart the run's snapshots are, at least. Replaying 1,000 events takes about a
/// third of a millisecond in the page; a snapshot shares the network's and timers' records with
/// the run (`SharedLog`), so it costs the nodes' state and a few chunks: 55 KB on average on
/// the 18,000-event sandbox run (1 MB for its 18 snapshots, beside 4 MB for the run itself).
pub const SNAPSHOT_EVERY: usize = 1_000;

/// The most snapshots a run keeps: past that, every other one is dropped and the spacing
/// doubles, so a run at the input budget (250,000) keeps 64 snapshots 4,000 events apart
/// rather than 250, and its memory stays bounded while a replay stays a few milliseconds.
pub const MAX_SNAPSHOTS: usize = 64;

impl Run {
    /// Runs `scenario` with `seed` and the user's interventions to the end.
    pub fn record(
        scenario: &Scenario,
        seed: u64,
        log: &[Intervention<String>],
    ) -> Result<Run, ScenarioError> {
        Run::record_with_snapshots(scenario, seed, log, SNAPSHOT_EVERY)
    }

    /// The same, with a snapshot every `every` events (tests take them closer together).
    pub fn record_with_snapshots(
        scenario: &Scenario,
        seed: u64,
        log: &[Intervention<String>],
        every: usize,
    ) -> Result<Run, ScenarioError> {
        let mut every = every.max(1);
        let mut snapshots = Vec::new();
        let mut sim = Sim::with_log(scenario, seed, log)?;
        snapshots.push(sim.snapshot());
        let nodes = sim.cast().len();
        let mut lease_now: Vec<Option<Lease>> = vec![None; nodes];
        let mut belief_now: Vec<Option<Option<FencingToken>>> = vec![None; nodes];
        let mut leases = Vec::new();
        let mut beliefs = Vec::new();
        let mut holders = Vec::new();
        let mut holder_now = None;
        while let Some(event) = sim.step() {
            let (event, actor) = (event.id.0 as usize, event.actor);
            if (event + 1) % every == 0 {
                snapshots.push(sim.snapshot());
                if snapshots.len() > MAX_SNAPSHOTS {
                    // Those kept are `2 * every` apart, from the start.
                    let mut index = 0;
                    snapshots.retain(|_| {
                        index += 1;
                        index % 2 == 1
                    });
                    every = every.saturating_mul(2);
                }
            }
            let holder = sim.lock_holder();
            if holder != holder_now {
                holder_now = holder;
                holders.push((event, holder));
            }
            // Only the acting node changes state in an event, but a service node's lease also
            // ends by the clock: look at every service node, there are at most seven.
            let leaderless = !sim.cast().services().any(|node| serving(&sim, node));
            for node in sim.cast().services() {
                let lease = live_lease(&sim, node, leaderless);
                if lease_now[node.index()] != lease {
                    lease_now[node.index()] = lease;
                    leases.push(LeaseChange { event, node, lease });
                }
            }
            if sim.cast().is_client(actor) {
                let belief = belief(&sim, actor);
                if belief_now[actor.index()] != belief {
                    belief_now[actor.index()] = belief;
                    beliefs.push(BeliefChange {
                        event,
                        client: actor,
                        belief,
                    });
                }
            }
        }
        // Half a run would mislead (its end is not the scenario's): the caller keeps what it
        // showed and says why.
        if let Some(spent) = sim.stopped_by_budget() {
            return Err(ScenarioError::BudgetSpent(spent));
        }
        let violations = (0..sim.trace().len())
            .filter(|&i| !sim.trace()[i].broke.is_empty())
            .collect();
        let outcome = RunOutcome::of(sim.trace());
        Ok(Run {
            hash: OnceCell::new(),
            outcome: outcome.lines(sim.cast()),
            verdict: Verdict::of(&outcome, sim.cast().request()),
            violations,
            sim,
            leases,
            beliefs,
            holders,
            snapshots,
        })
    }

    /// The simulation after the run's first `position` events (clamped to the run): the last
    /// snapshot at or before it, stepped on. Exactly the state a replay from the start reaches
    /// (`run::tests` compares them), for at most `SNAPSHOT_EVERY` steps.
    pub fn sim_at(&self, position: usize) -> Option<Sim> {
        let trace = self.sim.trace();
        let position = position.min(trace.len());
        let from = self
            .snapshots
            .iter()
            .rev()
            .find(|s| s.events() <= position)?;
        let mut sim = from.resume(trace)?;
        while sim.trace().len() < position && sim.step().is_some() {}
        Some(sim)
    }

    /// Who holds the lock just after the event with index `event`, in the lock service's own
    /// terms (`Sim::lock_holder`), or `nobody`.
    pub fn holder_after(&self, event: usize) -> String {
        let holder = self
            .holders
            .iter()
            .take_while(|(at, _)| *at <= event)
            .last()
            .and_then(|(_, holder)| *holder);
        holder.map_or_else(
            || "nobody".to_owned(),
            |h| self.sim.cast().name(h).to_owned(),
        )
    }

    /// The trace's hash (`Sim::hash`): what `lockstep-cli` prints for the same input.
    pub fn hash(&self) -> &str {
        self.hash.get_or_init(|| self.sim.hash())
    }

    /// Indices of the events that broke an invariant.
    pub fn violations(&self) -> &[usize] {
        &self.violations
    }

    /// How the finished run ended at the resource, one sentence per finding.
    pub fn outcome(&self) -> &[String] {
        &self.outcome
    }

    /// The same in one line: "Data lost: …" or "Data intact: …".
    pub fn verdict(&self) -> &Verdict {
        &self.verdict
    }

    /// A run of nothing, for when no scenario could be loaded.
    pub fn idle() -> Run {
        let mut sim = Sim::idle();
        let snapshots = vec![sim.snapshot()];
        Run {
            hash: OnceCell::new(),
            violations: Vec::new(),
            outcome: Vec::new(),
            verdict: Verdict::of(&RunOutcome::default(), Request::Write),
            sim,
            leases: Vec::new(),
            beliefs: Vec::new(),
            holders: Vec::new(),
            snapshots,
        }
    }
}

/// The lease `node` answers for, or, while no node serves the lock (`leaderless`), the one it
/// keeps in its log.
fn live_lease(sim: &Sim, node: NodeId, leaderless: bool) -> Option<Lease> {
    let (service, now) = running_service(sim, node)?;
    let served = service.live_lease(now).map(|(holder, token)| Lease {
        holder,
        token,
        standing: Standing::Served,
    });
    let stored = || {
        service
            .stored_lease(now)
            .filter(|_| leaderless)
            .map(|(holder, token)| Lease {
                holder,
                token: Some(token),
                standing: Standing::Stored,
            })
    };
    served.or_else(stored)
}

fn serving(sim: &Sim, node: NodeId) -> bool {
    running_service(sim, node).is_some_and(|(service, now)| service.serving(now))
}

/// A service node that is up (running or paused), with its clock's reading now.
fn running_service(sim: &Sim, node: NodeId) -> Option<(&LockService, LocalTime)> {
    let slot = sim.slot(node)?;
    match (&slot.node, slot.process) {
        (Node::LockService(service), Process::Running | Process::Paused { .. }) => {
            Some((service, slot.local_time(sim.now())))
        }
        _ => None,
    }
}

fn belief(sim: &Sim, client: NodeId) -> Option<Option<FencingToken>> {
    match &sim.slot(client)?.node {
        Node::Client(c) if c.believes_it_holds_the_lock() => Some(c.token()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::analysis::chaos::{Chaos, ChaosBackend};
    use lockstep_sim::models::resource::Fencing;
    use lockstep_sim::scenario::catalogue;

    fn run(id: &str) -> Run {
        let scenario = catalogue::find(id).and_then(|b| b.load().ok());
        let scenario = scenario.unwrap_or_else(|| panic!("{id} is in the catalogue"));
        Run::record(&scenario, scenario.seed, &[]).unwrap_or_else(|e| panic!("{id}: {e}"))
    }

    #[test]
    fn the_gc_pause_shows_two_leases_and_an_overlapping_belief() {
        let run = run("s2-gc-pause-fenced");
        let granted: Vec<_> = run
            .leases
            .iter()
            .filter_map(|c| c.lease.map(|l| l.token))
            .collect();
        let tokens = [Some(FencingToken(33)), Some(FencingToken(34))];
        assert_eq!(granted, tokens, "token 33 then token 34 at the service");
        let believers: Vec<_> = run
            .beliefs
            .iter()
            .filter_map(|c| c.belief.map(|t| (run.sim.cast().name(c.client), t)))
            .collect();
        assert_eq!(
            believers,
            [("client-a", tokens[0]), ("client-b", tokens[1])],
            "both clients believe, each with its own token"
        );
        // client-a still believes when client-b starts to: the picture of the problem.
        let a_stops = run
            .beliefs
            .iter()
            .find(|c| run.sim.cast().name(c.client) == "client-a" && c.belief.is_none());
        let b_starts = run
            .beliefs
            .iter()
            .find(|c| run.sim.cast().name(c.client) == "client-b");
        assert!(a_stops.map(|c| c.event) > b_starts.map(|c| c.event));
    }

    #[test]
    fn changes_are_recorded_in_event_order() {
        let run = run("s10-redlock-clock-jump");
        assert!(run.leases.windows(2).all(|w| w[0].event <= w[1].event));
        assert!(run.beliefs.windows(2).all(|w| w[0].event <= w[1].event));
        assert!(run.leases.iter().all(|c| c.event < run.sim.trace().len()));
    }

    /// The simulation a run reaches from the start, event by event, to `position`.
    fn from_the_start(scenario: &Scenario, position: usize) -> Sim {
        let mut sim = Sim::new(scenario).unwrap_or_else(|e| panic!("{}: {e}", scenario.id));
        while sim.trace().len() < position && sim.step().is_some() {}
        sim
    }

    /// Going to a position by snapshot and replay reaches exactly the state a replay from the
    /// start reaches: every node, the queue, the PRNG, the network, the timers and the trace
    /// (compared through their full `Debug` text), and the same future.
    #[test]
    fn a_position_reached_from_a_snapshot_is_the_state_reached_from_the_start() {
        let mut checked = 0;
        for built_in in catalogue::BUILT_IN {
            let Ok(scenario) = built_in.load() else {
                panic!("{} loads", built_in.id)
            };
            for every in [1, 7, 64] {
                let run = Run::record_with_snapshots(&scenario, scenario.seed, &[], every)
                    .unwrap_or_else(|e| panic!("{}: {e}", scenario.id));
                let total = run.sim.trace().len();
                let positions = (0..=total).step_by((total / 12).max(1)).chain([total]);
                for position in positions {
                    let resumed = run.sim_at(position).expect("a run has a snapshot at 0");
                    let replayed = from_the_start(&scenario, position);
                    assert_eq!(
                        format!("{resumed:?}"),
                        format!("{replayed:?}"),
                        "{} at {position}, a snapshot every {every}",
                        scenario.id
                    );
                    checked += 1;
                }
            }
            // And the future from there is the same run.
            let run = Run::record_with_snapshots(&scenario, scenario.seed, &[], 5)
                .unwrap_or_else(|e| panic!("{}: {e}", scenario.id));
            let mut resumed = run
                .sim_at(run.sim.trace().len() / 2)
                .expect("a snapshot at 0");
            resumed.run_to_end();
            assert_eq!(resumed.hash(), run.hash(), "{}", scenario.id);
        }
        assert!(checked > 500, "{checked} positions checked");
    }

    /// A long run keeps at most `MAX_SNAPSHOTS`, evenly spaced from the start, however close
    /// together it was asked to take them; and still resumes exactly from them.
    #[test]
    fn snapshots_are_thinned_to_a_bounded_number_evenly_spaced() {
        let scenario = Chaos::verification_test(3, Fencing::On).scenario();
        let run = Run::record_with_snapshots(&scenario, scenario.seed, &[], 1)
            .expect("the chaos run records");
        let total = run.sim.trace().len();
        let count = run.snapshots.len();
        assert!(count <= MAX_SNAPSHOTS, "{count} snapshots");
        assert!(
            count > MAX_SNAPSHOTS / 2,
            "{count} snapshots: thinned no more than needed"
        );
        let spacing = run.snapshots[1].events();
        assert!(spacing.is_power_of_two() && spacing * count > total / 2);
        for (i, snapshot) in run.snapshots.iter().enumerate() {
            assert_eq!(snapshot.events(), i * spacing);
        }
        for position in [spacing - 1, spacing, 5 * spacing + 3, total] {
            let resumed = run.sim_at(position).expect("a snapshot at 0");
            let replayed = from_the_start(&scenario, position);
            assert_eq!(
                format!("{resumed:?}"),
                format!("{replayed:?}"),
                "at {position}"
            );
        }
    }

    /// The same on long runs (the article's chaos test against the SQL row and against
    /// consensus, thousands of events), with the app's own spacing of snapshots.
    #[test]
    fn a_long_run_resumes_from_its_snapshots_exactly() {
        for backend in [ChaosBackend::SqlRow, ChaosBackend::Consensus] {
            let scenario = Chaos::verification_test(3, Fencing::On)
                .with_backend(backend)
                .scenario();
            let run = Run::record(&scenario, scenario.seed, &[]).expect("the chaos run records");
            let total = run.sim.trace().len();
            assert!(
                total > 3 * SNAPSHOT_EVERY,
                "{total} events: long enough for snapshots"
            );
            let positions = [
                0,
                SNAPSHOT_EVERY - 1,
                SNAPSHOT_EVERY,
                SNAPSHOT_EVERY + 1,
                total / 2,
                total - 1,
                total,
            ];
            for position in positions {
                let resumed = run.sim_at(position).expect("a snapshot at 0");
                let replayed = from_the_start(&scenario, position);
                assert_eq!(
                    format!("{resumed:?}"),
                    format!("{replayed:?}"),
                    "{backend:?} at {position}"
                );
            }
        }
    }
}
