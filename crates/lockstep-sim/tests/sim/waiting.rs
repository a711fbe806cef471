//! What a client sends while it waits for the lock: only a consensus session is kept alive
//! (etcd's keepalive runs beside `Lock`); a SQL row has no session to keep, so its waiting
//! client only asks again.

use crate::support::run_json;
use lockstep_sim::vocabulary::happening::Happening;
use lockstep_sim::vocabulary::message::Payload;

/// What client-b sends, in order, from its start until it is told it holds the lock, while
/// client-a holds the lock for its first second; and the token client-b is then told.
fn sent_while_waiting(lock_service: &str) -> (Vec<&'static str>, Option<u64>) {
    let json = format!(
        r#"{{"format":1,"id":"t","title":"t","seed":1,"end_ms":3000,
          "lock_service":{lock_service},
          "resource":{{"kind":"register","fencing":"on"}},
          "network":{{"latency_ms":[2,8]}},
          "clients":[
            {{"name":"client-a","start_ms":0,"ttl_ms":3000,"work_ms":1000,
              "access":{{"kind":"blind_write","value":1}}}},
            {{"name":"client-b","start_ms":100,"ttl_ms":300,"work_ms":100,
              "access":{{"kind":"blind_write","value":2}},
              "retry":{{"kind":"fixed","delay_ms":200,"attempts":10}},
              "renewal":{{"kind":"every","max_renewals":3}}}}]}}"#
    );
    let sim = run_json(&json);
    let client_b = sim.cast().find("client-b").expect("named");
    let told = sim.trace().iter().find_map(|e| match e.happening {
        Happening::GotLock { client, token, .. } if client == client_b => Some((e.time, token)),
        _ => None,
    });
    let (told_at, token) = told.expect("client-b gets the lock once client-a releases it");
    let sent = sim
        .network()
        .messages()
        .iter()
        .filter(|m| m.from == client_b && m.sent_at < told_at)
        .map(|m| match m.payload {
            Payload::Acquire { .. } => "acquire",
            Payload::Renew { token: None, .. } => "keepalive without a token",
            Payload::Renew { token: Some(_), .. } => "renewal",
            _ => "something else",
        })
        .collect();
    (sent, token.map(|t| t.0))
}

#[test]
fn a_sql_row_client_asks_again_after_each_refusal_and_sends_no_keepalive() {
    let (sent, token) = sent_while_waiting(r#"{"kind":"sql_row","last_token":32}"#);
    // Refused at 100 ms, then asking every 200 ms until client-a releases near 1000 ms.
    assert!(sent.len() >= 4, "{sent:?}");
    assert!(sent.iter().all(|kind| *kind == "acquire"), "{sent:?}");
    assert_eq!(token, Some(34), "the grant after client-a's token 33");
}

#[test]
fn a_consensus_client_asks_once_and_keeps_its_session_alive_while_it_queues() {
    let (sent, token) = sent_while_waiting(r#"{"kind":"consensus","replicas":3}"#);
    assert_eq!(sent.first(), Some(&"acquire"), "{sent:?}");
    assert_eq!(
        sent.iter().filter(|kind| **kind == "acquire").count(),
        1,
        "it waits in the queue, it does not ask again: {sent:?}"
    );
    // A keepalive every third of the 300 ms TTL, over some 900 ms of waiting.
    let keepalives = sent
        .iter()
        .filter(|kind| **kind == "keepalive without a token")
        .count();
    assert!(keepalives >= 5, "{sent:?}");
    assert_eq!(sent.len(), 1 + keepalives, "nothing else: {sent:?}");
    assert!(
        token.is_some_and(|t| t > 1),
        "a revision after client-a's: {token:?}"
    );
}
