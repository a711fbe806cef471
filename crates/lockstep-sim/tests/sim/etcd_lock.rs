//! The consensus service's lock as etcd builds it: every contender puts its own key, whose
//! create revision is its fencing token, and the key with the lowest revision holds the lock
//! (etcd `clientv3/concurrency` `Mutex.Lock`, etcd issue #11456). The etcd 3.4.3 bug tells a
//! waiter whose key has gone that it holds the lock — with its own revision, never another's.

use crate::support::{built_in, run, with_fencing};
use lockstep_sim::Sim;
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::story::export::trace_text;
use lockstep_sim::vocabulary::happening::Happening;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::vocabulary::message::{AcquireReply, Payload};

/// Every grant the lock service told a client of, in the order it told them: (client, token).
fn told_grants(sim: &Sim) -> Vec<(String, u64)> {
    sim.network()
        .messages()
        .iter()
        .filter(|m| sim.cast().is_service(m.from))
        .filter_map(|m| match m.payload {
            Payload::AcquireReply {
                reply: AcquireReply::Granted { token },
                ..
            } => Some((
                sim.cast().name(m.to).to_owned(),
                token.expect("a consensus grant carries its revision").0,
            )),
            _ => None,
        })
        .collect()
}

fn never_violated(sim: &Sim, invariant: Invariant) -> bool {
    sim.trace().iter().all(|e| !e.violated.contains(invariant))
}

#[test]
fn the_3_4_3_bug_tells_the_expired_waiter_its_own_revision() {
    let sim = run(&built_in("s18-etcd-3-4-3-lock-bug"));
    // client-2 put the first key (revision 1), client-1 the second while it waited
    // (revision 2), client-3 the third after client-1's key was gone (revision 3).
    assert_eq!(
        told_grants(&sim),
        [
            ("client-2".to_owned(), 1),
            ("client-1".to_owned(), 2),
            ("client-3".to_owned(), 3)
        ],
        "{}",
        trace_text(&sim)
    );
    let bug = sim
        .trace()
        .iter()
        .find(|e| matches!(e.happening, Happening::GrantedWithoutLease { .. }))
        .expect("the bug shows");
    assert_eq!(
        bug.happening.token().map(|t| t.0),
        Some(2),
        "its own key's revision"
    );
    assert!(never_violated(&sim, Invariant::TokensIncrease));
    assert!(never_violated(&sim, Invariant::OneWriterPerToken));
    assert!(
        !never_violated(&sim, Invariant::OneBeliever),
        "two holders all the same"
    );
}

#[test]
fn the_waiters_key_is_deleted_when_its_lease_expires_not_when_the_lock_frees() {
    let sim = run(&built_in("s18-etcd-3-4-3-lock-bug"));
    let client_1 = sim.cast().find("client-1").expect("client-1");
    let expired = sim
        .trace()
        .iter()
        .find(
            |e| matches!(e.happening, Happening::LeaseExpired { holder, .. } if holder == client_1),
        )
        .expect("client-1's lease expires while it waits");
    assert_eq!(expired.happening.token().map(|t| t.0), Some(2));
    let released = sim
        .trace()
        .iter()
        .find(|e| matches!(e.happening, Happening::GrantedWithoutLease { .. }))
        .expect("the bug shows");
    assert!(expired.time < released.time, "{}", trace_text(&sim));
}

#[test]
fn the_fixed_server_tells_the_expired_waiter_nothing_granted() {
    let sim = run(&built_in("s18-etcd-lock-rechecks-the-lease"));
    assert_eq!(
        told_grants(&sim),
        [("client-2".to_owned(), 1), ("client-3".to_owned(), 3)],
        "{}",
        trace_text(&sim)
    );
    assert!(never_violated(&sim, Invariant::OneBeliever));
}

/// The server tells the expired waiter its session expired, and the waiter hears exactly that:
/// not that the lock is held elsewhere (nobody held it then), and its job ends so.
#[test]
fn the_expired_waiter_is_told_its_session_expired_and_says_so() {
    let sim = run(&built_in("s18-etcd-lock-rechecks-the-lease"));
    let told = sim
        .network()
        .messages()
        .iter()
        .filter(|m| sim.cast().name(m.to) == "client-1")
        .filter_map(|m| match m.payload {
            Payload::AcquireReply { reply, .. } => Some(reply),
            _ => None,
        })
        .collect::<Vec<_>>();
    assert_eq!(told, [AcquireReply::SessionExpired], "{}", trace_text(&sim));
    let heard = sim
        .trace()
        .iter()
        .find(|e| sim.cast().name(e.actor) == "client-1" && e.happening.job_result().is_some())
        .expect("client-1's job ends");
    assert!(
        matches!(
            heard.happening,
            Happening::SessionExpired {
                retries_left: None,
                ..
            }
        ),
        "{}",
        trace_text(&sim)
    );
    let text = trace_text(&sim);
    let line = text
        .lines()
        .find(|l| l.contains("client-1 is told its session expired"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(!line.contains("held elsewhere"), "{line}");
}

#[test]
fn a_fair_queue_grants_each_waiter_the_revision_of_the_key_it_put() {
    let sim = run(&built_in("s16-consensus-fair-queue"));
    let put: Vec<(String, u64)> = sim
        .trace()
        .iter()
        .filter_map(|e| match e.happening {
            Happening::Appended {
                op:
                    lockstep_sim::vocabulary::raft::Op::Grant {
                        client, revision, ..
                    }
                    | lockstep_sim::vocabulary::raft::Op::Wait {
                        client, revision, ..
                    },
                ..
            } => Some((sim.cast().name(client).to_owned(), revision.0)),
            _ => None,
        })
        .collect();
    let told = told_grants(&sim);
    assert!(told.len() > 1, "{}", trace_text(&sim));
    for grant in &told {
        assert!(
            put.contains(grant),
            "{grant:?} was never put as a key\n{}",
            trace_text(&sim)
        );
    }
}

/// The S18 summary's claim: fencing by revision does not stop client-1's write either, since
/// token 2 reaches the resource before client-3's first write with token 3.
#[test]
fn with_revision_fencing_the_expired_waiters_write_still_lands_first() {
    let scenario = with_fencing(built_in("s18-etcd-3-4-3-lock-bug"), Fencing::On);
    let sim = run(&scenario);
    let accepted: Vec<(String, u64)> = sim
        .trace()
        .iter()
        .filter_map(|e| match e.happening {
            Happening::WriteAccepted {
                writer,
                token: Some(token),
                ..
            } => Some((sim.cast().name(writer).to_owned(), token.0)),
            _ => None,
        })
        .collect();
    assert_eq!(
        accepted,
        [
            ("client-2".to_owned(), 1),
            ("client-1".to_owned(), 2),
            ("client-3".to_owned(), 3)
        ],
        "{}",
        trace_text(&sim)
    );
}

/// A `Lock` call outlives a change of leader: client-b's key was committed while it waited;
/// the leader then crashes, and when client-a releases, the new leader answers client-b with
/// its key's revision (client-b never asks again: it has no request timeout).
#[test]
fn a_waiter_is_answered_by_the_next_leader() {
    let sim = crate::support::run_json(
        r#"{"format":1,"id":"t","title":"t","seed":5,"end_ms":6000,
          "lock_service":{"kind":"consensus"},
          "resource":{"kind":"register","fencing":"on"},
          "network":{"latency_ms":[2,8]},
          "clients":[
            {"name":"client-a","start_ms":0,"ttl_ms":2000,"work_ms":2000,
             "access":{"kind":"blind_write","value":1},
             "renewal":{"kind":"every","max_renewals":20}},
            {"name":"client-b","start_ms":100,"ttl_ms":2000,"work_ms":100,
             "access":{"kind":"blind_write","value":2},
             "renewal":{"kind":"every","max_renewals":20}}],
          "interventions":[{"at_ms":500,"do":{"action":"crash","node":"etcd-1"}}]}"#,
    );
    assert_eq!(
        told_grants(&sim),
        [("client-a".to_owned(), 1), ("client-b".to_owned(), 2)],
        "{}",
        trace_text(&sim)
    );
}
