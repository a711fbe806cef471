//! A consensus lock's leases still rest on a clock: the leader's. S20's pair runs the same
//! clients and the same fault — one replica's clock at twice the true rate — on the leader and on
//! a follower. The leader ends client-1's lease after about half its TTL in true time, and a
//! second client is granted the lock while the first still believes it holds it; on a follower
//! the fast clock changes nothing. Only the resource's token check stops the late write.

use crate::support::{built_in, run, with_fencing};
use lockstep_sim::Sim;
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::story::export::trace_text;
use lockstep_sim::vocabulary::happening::Happening;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::vocabulary::message::Refusal;
use lockstep_sim::world::token::FencingToken;

const LEADER: &str = "s20-consensus-fast-leader-clock";
const FOLLOWER: &str = "s20-consensus-fast-follower-clock";

fn broke(sim: &Sim, invariant: Invariant) -> bool {
    sim.trace().iter().any(|e| e.broke.contains(invariant))
}

/// When (true time, ms) the service expired a lease, and which node said so.
fn expiries(sim: &Sim) -> Vec<(u64, String)> {
    sim.trace()
        .iter()
        .filter(|e| matches!(e.happening, Happening::LeaseExpired { .. }))
        .map(|e| (e.time.0, sim.cast().name(e.actor).to_owned()))
        .collect()
}

#[test]
fn a_fast_leader_clock_ends_the_lease_early_and_two_clients_believe_they_hold_the_lock() {
    let scenario = built_in(LEADER);
    assert_eq!(scenario.resource.fencing(), Some(Fencing::Off));
    let sim = run(&scenario);
    // 10 s by a clock at twice the true rate: about 5 s of true time after the grant at 16 ms.
    let expired = expiries(&sim);
    assert_eq!(expired.len(), 1, "{}", trace_text(&sim));
    let (at, by) = &expired[0];
    assert_eq!(by, "etcd-1", "the leader ends the lease");
    assert!((4_900..=5_100).contains(at), "expired at {at} ms");
    assert!(broke(&sim, Invariant::OneBeliever), "{}", trace_text(&sim));
    assert!(broke(&sim, Invariant::NoStaleWrite), "{}", trace_text(&sim));
    // The replicas never disagree about who was granted what: one lease, increasing tokens.
    assert!(!broke(&sim, Invariant::OneLease));
    assert!(!broke(&sim, Invariant::TokensIncrease));
}

#[test]
fn the_same_fast_clock_on_a_follower_changes_nothing() {
    let sim = run(&built_in(FOLLOWER));
    assert_eq!(expiries(&sim), Vec::new(), "{}", trace_text(&sim));
    for invariant in Invariant::ALL {
        assert!(
            !broke(&sim, invariant),
            "{invariant}:\n{}",
            trace_text(&sim)
        );
    }
}

#[test]
fn with_fencing_on_the_resource_rejects_the_late_write() {
    let sim = run(&with_fencing(built_in(LEADER), Fencing::On));
    let client_1 = sim.cast().find("client-1").expect("named");
    let rejected = sim.trace().iter().any(|e| {
        matches!(
            e.happening,
            Happening::WriteRejected {
                writer,
                refusal: Refusal::StaleToken {
                    presented: FencingToken(1),
                    required: FencingToken(2),
                },
            } if writer == client_1
        )
    });
    assert!(rejected, "{}", trace_text(&sim));
    assert!(
        broke(&sim, Invariant::OneBeliever),
        "fencing changes no belief"
    );
    assert!(
        !broke(&sim, Invariant::NoStaleWrite),
        "{}",
        trace_text(&sim)
    );
}
