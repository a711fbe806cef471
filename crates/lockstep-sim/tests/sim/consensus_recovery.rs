//! The consensus service recovers a dead holder's lock after a change of leader or a clock
//! jump, and reports what an expiry led to.

use crate::support::run_json as run;
use lockstep_sim::Sim;
use lockstep_sim::story::export::trace_text;
use lockstep_sim::vocabulary::happening::Happening;
use lockstep_sim::world::ids::NodeId;
use lockstep_sim::world::token::FencingToken;

fn granted_tokens(sim: &Sim) -> Vec<u64> {
    sim.trace()
        .iter()
        .filter_map(|e| match e.happening {
            Happening::Granted {
                token: Some(token), ..
            } => Some(token.0),
            _ => None,
        })
        .collect()
}

/// client-a holds the lock and dies together with the leader etcd-1 (crashed at `leader_crash`
/// ms); client-b then waits for the lock.
fn leader_and_holder_crash(leader_crash: u64) -> String {
    format!(
        r#"{{"format":1,"id":"t","title":"t","seed":42,"end_ms":8000,
      "lock_service":{{"kind":"consensus"}},
      "resource":{{"kind":"register","fencing":"on"}},
      "network":{{"latency_ms":[2,8]}},
      "clients":[
        {{"name":"client-a","start_ms":0,"ttl_ms":2000,"work_ms":3000,
          "access":{{"kind":"blind_write","value":1}},
          "renewal":{{"kind":"every","max_renewals":20}}}},
        {{"name":"client-b","start_ms":1500,"ttl_ms":2000,"work_ms":200,
          "access":{{"kind":"blind_write","value":2}},
          "renewal":{{"kind":"every","max_renewals":20}}}}],
      "interventions":[
        {{"at_ms":{leader_crash},"do":{{"action":"crash","node":"etcd-1"}}}},
        {{"at_ms":{},"do":{{"action":"crash","node":"client-a"}}}}]}}"#,
        leader_crash + 10
    )
}

#[test]
fn a_heartbeat_carries_the_commit_point_to_the_followers() {
    let sim = run(&leader_and_holder_crash(600));
    // etcd-2 and etcd-3 (nodes 1 and 2) learn of the grant from the leader's heartbeat.
    for follower in [NodeId(1), NodeId(2)] {
        assert!(
            sim.trace().iter().any(|e| e.time.0 < 600
                && e.happening
                    == Happening::Committed {
                        node: follower,
                        index: 1
                    }),
            "{}",
            trace_text(&sim)
        );
    }
}

#[test]
fn a_new_leader_expires_a_dead_holder_it_knew_of_when_elected() {
    let sim = run(&leader_and_holder_crash(600));
    assert_eq!(granted_tokens(&sim), [1, 2], "{}", trace_text(&sim));
}

#[test]
fn a_new_leader_expires_a_dead_holder_it_learns_of_only_after_its_election() {
    // The leader crashes after committing the grant but before a heartbeat told the followers,
    // so the new leader learns of the holder only when its own first entry commits.
    let sim = run(&leader_and_holder_crash(50));
    assert!(
        !sim.trace().iter().any(|e| matches!(
            e.happening,
            Happening::Committed { node, index: 1 } if node != NodeId(0)
        )),
        "no follower heard of the commit before the crash:\n{}",
        trace_text(&sim)
    );
    assert_eq!(granted_tokens(&sim), [1, 2], "{}", trace_text(&sim));
}

/// client-a crashes holding the lock and `clock_change` happens to the leader's clock.
fn crashed_holder_with(clock_change: &str) -> Sim {
    let json = format!(
        r#"{{"format":1,"id":"t","title":"t","seed":1,"end_ms":8000,
      "lock_service":{{"kind":"consensus"}},
      "resource":{{"kind":"register","fencing":"on"}},
      "network":{{"latency_ms":[2,8]}},
      "clients":[
        {{"name":"client-a","start_ms":0,"ttl_ms":1000,"work_ms":200,
         "access":{{"kind":"blind_write","value":1}},
         "renewal":{{"kind":"every","max_renewals":30}}}},
        {{"name":"client-b","start_ms":100,"ttl_ms":1000,"work_ms":100,
         "access":{{"kind":"blind_write","value":2}},
         "renewal":{{"kind":"every","max_renewals":30}}}}],
      "interventions":[
        {{"at_ms":50,"do":{{"action":"crash","node":"client-a"}}}}{clock_change}]}}"#
    );
    run(&json)
}

fn session_expiry(sim: &Sim) -> u64 {
    sim.trace()
        .iter()
        .find(|e| matches!(e.happening, Happening::LeaseExpired { .. }))
        .unwrap_or_else(|| panic!("client-a's session expires:\n{}", trace_text(sim)))
        .time
        .0
}

#[test]
fn a_step_of_the_leaders_wall_clock_moves_no_session() {
    let steady = crashed_holder_with("");
    for by_ms in [-5000, 5000] {
        let stepped = crashed_holder_with(&format!(
            r#",{{"at_ms":300,"do":{{"action":"clock_jump","node":"etcd-1","by_ms":{by_ms}}}}}"#
        ));
        // etcd times leases on a monotonic clock: an NTP step ends no session early or late.
        assert_eq!(
            session_expiry(&stepped),
            session_expiry(&steady),
            "{by_ms} ms:\n{}",
            trace_text(&stepped)
        );
        assert_eq!(granted_tokens(&stepped), [1, 2], "{}", trace_text(&stepped));
        // The reader is told why the lease did not move.
        assert!(
            trace_text(&stepped).contains("on a monotonic clock"),
            "{}",
            trace_text(&stepped)
        );
    }
}

#[test]
fn a_leader_clock_running_fast_ends_a_session_early() {
    let steady = session_expiry(&crashed_holder_with(""));
    let fast = crashed_holder_with(
        r#",{"at_ms":0,"do":{"action":"clock_drift","node":"etcd-1","drift_ppm":500000}}"#,
    );
    // A wrong rate is what a monotonic clock does not guard against (scenario S20).
    assert!(session_expiry(&fast) < steady, "{}", trace_text(&fast));
}

#[test]
fn an_expiry_that_wakes_the_herd_says_so() {
    let json = r#"{"format":1,"id":"t","title":"t","seed":1,"end_ms":5000,
      "lock_service":{"kind":"consensus","waiters":"herd"},
      "resource":{"kind":"register","fencing":"on"},
      "network":{"latency_ms":[2,8]},
      "clients":[
        {"name":"client-a","start_ms":0,"ttl_ms":1000,"work_ms":2000,
         "access":{"kind":"blind_write","value":1}},
        {"name":"client-b","start_ms":100,"ttl_ms":1000,"work_ms":100,
         "access":{"kind":"blind_write","value":2}}],
      "interventions":[{"at_ms":50,"do":{"action":"crash","node":"client-a"}}]}"#;
    let sim = run(json);
    let trace = sim.trace();
    let expired = trace
        .iter()
        .position(|e| matches!(e.happening, Happening::LeaseExpired { .. }))
        .unwrap_or_else(|| panic!("client-a's session expires:\n{}", trace_text(&sim)));
    assert!(
        trace[expired..]
            .iter()
            .any(|e| matches!(e.happening, Happening::HerdWoken { woken: 1, .. })),
        "{}",
        trace_text(&sim)
    );
}

#[test]
fn a_refused_renewal_carries_the_requesters_token() {
    // client-a pauses past its session; when it wakes, client-b holds the lock and client-a's
    // renewal is refused.
    let json = r#"{"format":1,"id":"t","title":"t","seed":1,"end_ms":8000,
      "lock_service":{"kind":"consensus"},
      "resource":{"kind":"register","fencing":"on"},
      "network":{"latency_ms":[2,8]},
      "clients":[
        {"name":"client-a","start_ms":0,"ttl_ms":500,"work_ms":3000,
         "access":{"kind":"blind_write","value":1},
         "renewal":{"kind":"every","max_renewals":20}},
        {"name":"client-b","start_ms":100,"ttl_ms":3000,"work_ms":2000,
         "access":{"kind":"blind_write","value":2}}],
      "interventions":[{"at_ms":100,"do":{"action":"pause","node":"client-a","for_ms":1500}}]}"#;
    let sim = run(json);
    let refused: Vec<_> = sim
        .trace()
        .iter()
        .filter_map(|e| match e.happening {
            Happening::RenewRefused { token, holder, .. } => Some((token, holder)),
            _ => None,
        })
        .collect();
    assert!(!refused.is_empty(), "{}", trace_text(&sim));
    for (token, holder) in refused {
        assert_ne!(holder, None, "{}", trace_text(&sim));
        assert_eq!(token, Some(FencingToken(1)), "{}", trace_text(&sim));
    }
}
