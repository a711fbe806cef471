//! The narration words what a client was told or believes as such: only the lock service's own
//! events state who holds the lock. Walks every catalogue scenario's trace.

use crate::support::{every_answer_is_told, run};
use lockstep_sim::Sim;
use lockstep_sim::engine::trace::Cause;
use lockstep_sim::engine::trace::TraceEvent;
use lockstep_sim::scenario::catalogue;
use lockstep_sim::story::export::TraceExport;
use lockstep_sim::vocabulary::happening::{Happening, Input};
use lockstep_sim::vocabulary::message::{Payload, RedlockRound};
use lockstep_sim::world::ids::NodeId;

/// Phrasings that state a client's belief as a fact, wherever they appear in a client's event.
const TRUTH_CLAIMS: &[&str] = &[
    "learns",
    "by its reckoning",
    "releases the lock",
    "releases it",
    "takes it anyway",
    "no longer holds",
    "is no longer its own",
];

/// Words about holding or renewing the lock: a sentence of a client's event that uses one must
/// say that the client was told it, or believes it.
const ABOUT_THE_LOCK: &[&str] = &[
    "holds",
    "holding",
    "has the lock",
    "was renewed",
    "is renewed",
];

const HEDGES: &[&str] = &["told", "believe"];

/// What is wrong with a client event's description, if anything. Quoted message labels (the
/// "renewed" message) are names, not claims, and are left out.
fn truth_claim(description: &str) -> Option<String> {
    let unquoted: String = description
        .split('"')
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(_, part)| part)
        .collect::<Vec<_>>()
        .join("…")
        .to_lowercase();
    if let Some(claim) = TRUTH_CLAIMS.iter().find(|c| unquoted.contains(*c)) {
        return Some(format!("says \"{claim}\""));
    }
    unquoted
        .split(['.', ';', ':'])
        .find(|sentence| {
            ABOUT_THE_LOCK.iter().any(|w| sentence.contains(w))
                && !HEDGES.iter().any(|h| sentence.contains(h))
        })
        .map(|sentence| format!("states as fact: \"{}\"", sentence.trim()))
}

#[test]
fn no_client_event_states_a_belief_as_a_fact() {
    let mut wrong = Vec::new();
    for built_in in catalogue::BUILT_IN {
        let scenario = built_in.load().expect("parses");
        let sim = run(&scenario);
        let clients: Vec<&str> = scenario.clients.iter().map(|c| c.name.as_str()).collect();
        for event in TraceExport::of(&sim, built_in.id).events {
            if !clients.contains(&event.actor.as_str()) {
                continue;
            }
            if let Some(why) = truth_claim(&event.description) {
                wrong.push(format!(
                    "{} #{} ({}): {why}\n    {}",
                    built_in.id, event.id, event.kind, event.description
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} client events state beliefs as facts; the first ones:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(30)].join("\n")
    );
}

#[test]
fn the_check_tells_a_claim_from_a_belief() {
    assert!(truth_claim("client-a learns it holds the lock with token 33.").is_some());
    assert!(truth_claim("client-a holds the lock for another 900 ms.").is_some());
    assert!(truth_claim("client-a is told it holds the lock with token 33.").is_none());
    assert!(truth_claim("client-a believes it holds the lock.").is_none());
    assert!(truth_claim("client-a ignores the \"renewed\" message m12.").is_none());
}

/// A lease's expiry says how its holder hears of it, which depends on the service: a session
/// service answers the holder's next keepalive with the session gone; a row or a key tells nobody.
#[test]
fn an_expiry_says_how_the_holder_hears_of_it() {
    let expiry = |id: &str| {
        let sim = run(&catalogue::find(id)
            .expect("built in")
            .load()
            .expect("parses"));
        TraceExport::of(&sim, id)
            .events
            .into_iter()
            .find(|e| e.kind == "lease_expired")
            .map(|e| e.description)
            .expect("a lease expires")
    };
    let session = expiry("s13-consensus-lock-delay");
    assert!(
        session.ends_with("in answer to its next keepalive, if it sends one and it gets through."),
        "{session}"
    );
    let row = expiry("s1-gc-pause-unfenced");
    assert!(row.ends_with("Nobody tells client-a."), "{row}");
}

/// The all-node round a client's event opened, read from the messages it sent: an acquire, a
/// renewal or a release to several nodes.
fn round_opened(sim: &Sim, event: &TraceEvent) -> Option<(NodeId, RedlockRound)> {
    let sent: Vec<_> = event.sent_records(sim.network()).collect();
    let first = sent.first()?;
    let round = match first.payload {
        Payload::Acquire { .. } => RedlockRound::Acquire,
        Payload::Renew { .. } => RedlockRound::Renew,
        Payload::Release { .. } => RedlockRound::Release,
        _ => return None,
    };
    (sent.len() > 1).then_some((first.from, round))
}

/// The round the answer an event handled belongs to, by the kind of that answer.
fn answered_round(sim: &Sim, event: &TraceEvent) -> RedlockRound {
    let (Cause::Input(Input::Message(id)) | Cause::Resumed(Input::Message(id))) = event.cause
    else {
        panic!(
            "a node's answer is handled as a message: event {}",
            event.id
        );
    };
    sim.network()
        .message(id)
        .and_then(|m| m.payload.answers_round())
        .unwrap_or_else(|| panic!("event {} counts a message that answers no round", event.id))
}

#[test]
fn a_redlock_unlock_round_is_not_narrated_as_a_vote() {
    let mut unlocks = 0;
    for built_in in catalogue::BUILT_IN {
        let sim = run(&built_in.load().expect("parses"));
        let export = TraceExport::of(&sim, built_in.id);
        let mut asked = Vec::new();
        for (event, told) in sim.trace().iter().zip(&export.events) {
            if let Some((client, round)) = round_opened(&sim, event) {
                asked.retain(|(c, _)| *c != client);
                asked.push((client, round));
            }
            let Happening::NodeAnswered { client, .. } = event.happening else {
                continue;
            };
            let round = answered_round(&sim, event);
            let last = asked.iter().find(|(c, _)| *c == client).map(|(_, r)| *r);
            let at = format!("{} #{}: {}", built_in.id, told.id, told.description);
            assert_eq!(
                Some(round),
                last,
                "the answer counts in another round: {at}"
            );
            let a_vote = told.description.contains(" hears yes from ")
                || told.description.contains(" hears no from ");
            assert_eq!(a_vote, round == RedlockRound::Acquire, "{at}");
            if round == RedlockRound::Release {
                unlocks += 1;
                assert!(told.description.contains("unlock"), "{at}");
            }
        }
    }
    assert!(
        unlocks > 0,
        "some catalogue scenario has a Redlock unlock round"
    );
}

#[test]
fn every_answer_a_catalogue_service_sends_is_told() {
    for built_in in catalogue::BUILT_IN {
        let sim = run(&built_in.load().expect("parses"));
        if let Err(untold) = every_answer_is_told(&sim) {
            panic!("{}: {untold}", built_in.id);
        }
    }
}

#[test]
fn the_etcd_lock_bug_is_named_by_its_release_line() {
    // Every 3.4 release has the bug and 3.5.0 fixed it (PR #11408, never backported): a
    // sentence naming 3.4.3 alone, or calling it "since fixed", teaches the wrong upgrade.
    let mut named = 0;
    for built_in in catalogue::BUILT_IN {
        let sim = run(&built_in.load().expect("parses"));
        for event in TraceExport::of(&sim, built_in.id).events {
            let text = &event.description;
            assert!(
                !text.contains("3.4.3") && !text.contains("since fixed"),
                "{} #{}: {text}",
                built_in.id,
                event.id
            );
            named += usize::from(text.contains("etcd 3.4.x"));
        }
    }
    assert!(named > 0, "S18's narration names the bug");
}
