//! A client's local deadline, over whole runs: S14's partitioned client with and without one.

use crate::support::{built_in, run};
use lockstep_sim::models::client::LocalDeadline;
use lockstep_sim::story::export::trace_text;
use lockstep_sim::vocabulary::happening::{DeadlineCut, Happening};
use lockstep_sim::vocabulary::invariant::Invariant;

const WITH_DEADLINE: &str = "s14-consensus-client-partitioned-deadline";

#[test]
fn the_cut_off_client_gives_up_by_its_own_clock_before_the_service_expires_its_lease() {
    let sim = run(&built_in(WITH_DEADLINE));
    let text = trace_text(&sim);
    let gave_up = sim
        .trace()
        .iter()
        .find(|e| matches!(e.happening, Happening::DeadlinePassed { .. }))
        .unwrap_or_else(|| panic!("client-a gives up\n{text}"));
    let expired = sim
        .trace()
        .iter()
        .find(|e| matches!(e.happening, Happening::LeaseExpired { .. }))
        .unwrap_or_else(|| panic!("the lease expires\n{text}"));
    assert!(
        gave_up.time < expired.time,
        "counted from the send, the deadline comes first\n{text}"
    );
    assert!(matches!(
        gave_up.happening,
        Happening::DeadlinePassed {
            cut: DeadlineCut::Work,
            ..
        }
    ));
    let client_a = gave_up.actor;
    assert!(
        !sim.trace().iter().any(|e| matches!(
            e.happening,
            Happening::WriteSent { client, .. } if client == client_a
        )),
        "client-a never writes\n{text}"
    );
    assert!(
        !sim.trace()
            .iter()
            .any(|e| e.broke.contains(Invariant::OneBeliever)),
        "{text}"
    );
}

#[test]
fn without_its_deadline_the_same_client_runs_exactly_as_the_oblivious_one() {
    let mut scenario = built_in(WITH_DEADLINE);
    scenario.clients[0].local_deadline = LocalDeadline::Never {};
    let oblivious = run(&scenario);
    let plain = run(&built_in("s14-consensus-client-partitioned"));
    assert_eq!(
        trace_text(&oblivious),
        trace_text(&plain),
        "the deadline is the only difference between the two scenarios"
    );
    for invariant in [Invariant::OneBeliever, Invariant::NoStaleWrite] {
        assert!(
            oblivious
                .trace()
                .iter()
                .any(|e| e.broke.contains(invariant)),
            "{invariant} is broken without the deadline"
        );
    }
}
