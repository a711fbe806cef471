//! The timeline says "belief outlives the lease" only where the lock service really no longer
//! holds the client's lease, in every scenario of the catalogue. The lock service's side is read
//! here from the simulation itself, not from the recorded run the drawing is made from: a lease
//! is held while a service node answers for it, or, between consensus leaders, while a majority
//! of the replicas keep the client's key as the lowest one (the next leader will serve it).

use super::*;
use lockstep_sim::engine::sim::{Node, Process, Sim};
use lockstep_sim::scenario::catalogue;
use lockstep_sim::scenario::types::Scenario;

/// Whether the lock service, in the simulation's state now, still holds `client`'s lease.
fn service_holds(sim: &Sim, client: NodeId) -> bool {
    let services: Vec<_> = sim
        .cast()
        .services()
        .filter_map(|node| sim.slot(node))
        .filter_map(|slot| match &slot.node {
            Node::LockService(service) => Some((slot, service)),
            _ => None,
        })
        .collect();
    let up = |slot: &lockstep_sim::engine::sim::Slot| {
        matches!(slot.process, Process::Running | Process::Paused { .. })
    };
    let served = services.iter().any(|(slot, service)| {
        up(slot)
            && service
                .live_lease(slot.local_time(sim.now()))
                .is_some_and(|(holder, _)| holder == client)
    });
    // A consensus replica is the node whose role has a term.
    let replicas: Vec<_> = services
        .iter()
        .filter(|(_, service)| service.role().term().is_some())
        .collect();
    let leaderless = !replicas
        .iter()
        .any(|(slot, service)| up(slot) && service.serving(slot.local_time(sim.now())));
    let keeping = replicas
        .iter()
        .filter(|(slot, service)| {
            service.record(slot.local_time(sim.now())).holder() == Some(client)
        })
        .count();
    served || (leaderless && !replicas.is_empty() && keeping * 2 > replicas.len())
}

/// Every event at which `layout` draws an overhang on `client`'s lane while the service held
/// its lease, for the scenario `run` was recorded from.
fn overhangs_over_a_held_lease(scenario: &Scenario, run: &Run, layout: &Layout) -> Vec<String> {
    let mut sim = Sim::with_log(scenario, scenario.seed, &[]).expect("the run was recorded");
    let mut wrong = Vec::new();
    while let Some(event) = sim.step() {
        let index = event.id.0 as usize;
        for client in sim.cast().clients() {
            let drawn = layout.spans.iter().any(|s| {
                s.kind == SpanKind::Overhang
                    && Some(s.lane) == layout.lane_of(client)
                    && s.from.event <= index
                    && s.to.is_none_or(|to| index < to.event)
            });
            if drawn && service_holds(&sim, client) {
                wrong.push(format!("event {index}: {}", run.sim.cast().name(client)));
            }
        }
    }
    wrong
}

#[test]
fn no_scenario_draws_a_belief_outliving_a_lease_the_service_still_holds() {
    let mut wrong = Vec::new();
    for built in catalogue::BUILT_IN {
        let scenario = built.load().unwrap_or_else(|e| panic!("{}: {e}", built.id));
        let run = Run::record(&scenario, scenario.seed, &[]).expect("every scenario runs");
        let layout = Layout::of(&run);
        for problem in overhangs_over_a_held_lease(&scenario, &run, &layout) {
            wrong.push(format!("{}: {problem}", built.id));
        }
    }
    assert!(
        wrong.is_empty(),
        "belief drawn as outliving a lease the service holds:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn between_consensus_leaders_the_lease_is_drawn_as_kept_in_the_log() {
    let scenario = catalogue::find("s15-consensus-leader-crash")
        .expect("S15 is in the catalogue")
        .load()
        .expect("S15 loads");
    let run = Run::record(&scenario, scenario.seed, &[]).expect("S15 runs");
    let layout = Layout::of(&run);
    let stored: Vec<_> = layout
        .spans
        .iter()
        .filter(|s| matches!(s.kind, SpanKind::StoredLease { .. }))
        .collect();
    assert!(
        !stored.is_empty(),
        "S15 draws no lease kept between leaders"
    );
    let cast = run.sim.cast();
    let client_a = cast
        .clients()
        .find(|&c| cast.name(c) == "client-a")
        .expect("S15 has client-a");
    assert!(
        stored
            .iter()
            .all(|s| matches!(s.kind, SpanKind::StoredLease { holder, .. } if holder == client_a)),
        "the lease kept between leaders is client-a's"
    );
}
