//! The trace in words and as JSON: [`TraceExport`], the serialisable form with descriptions and
//! names filled in (the JSON documented in `docs/trace-format.md`), and the CLI's text lines.
//!
//! Each event lists the messages it sent with their recipient, kind, answer and token, so that
//! someone with the file alone can judge the run again. It must not add anything to the hash:
//! that covers the run (`trace_hash`), not the shape it is exported in.

use crate::engine::sim::Sim;
use crate::engine::trace::{Cause, TraceEvent};
use crate::scenario::cast::Cast;
use crate::scenario::types::Scenario;
use crate::story::describe::describe;
use crate::vocabulary::happening::{Happening, Outcome};
use crate::vocabulary::invariant::InvariantSet;
use crate::vocabulary::message::{PayloadKind, Reply};
use crate::world::ids::{MessageId, NodeId};
use crate::world::network::Network;
use crate::world::token::FencingToken;
use serde::{Deserialize, Serialize};

/// A whole run, as exported to JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceExport {
    pub format: u32,
    pub scenario: String,
    pub seed: u64,
    pub hash: String,
    pub nodes: Vec<String>,
    pub events: Vec<EventExport>,
    /// The scenario file that reproduces the run, with every intervention in it, when the
    /// exporter includes it (the app does, so that an imported trace can be replayed and
    /// checked; the CLI does not: its argument is the file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Scenario>,
}

/// The serialisable, self-describing form of one event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventExport {
    pub id: u32,
    pub time_ms: u64,
    pub actor: String,
    pub kind: String,
    pub cause: Cause,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<FencingToken>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    pub description: String,
    pub sent: Vec<SentMessage>,
    pub violated: InvariantSet,
    pub broke: InvariantSet,
    pub details: Happening,
}

/// One message an event sent: who it went to and what it says, as far as judging the run needs
/// (a grant and its token, a refusal, an expired session, a write's token). Format 1 listed
/// only the numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SentMessage {
    pub id: MessageId,
    pub to: NodeId,
    pub kind: PayloadKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<Reply>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<FencingToken>,
}

pub const TRACE_FORMAT_VERSION: u32 = 2;

/// The messages `event` sent, from the network's record of every message of the run.
fn what_it_sent(event: &TraceEvent, network: &Network) -> Vec<SentMessage> {
    event
        .sent_records(network)
        .map(|m| SentMessage {
            id: m.id,
            to: m.to,
            kind: m.payload.kind(),
            reply: m.payload.reply(),
            token: m.payload.token(),
        })
        .collect()
}

pub fn export_event(event: &TraceEvent, cast: &Cast, network: &Network) -> EventExport {
    EventExport {
        id: event.id.0,
        time_ms: event.time.0,
        actor: cast.name(event.actor).to_owned(),
        kind: event.happening.kind().to_owned(),
        cause: event.cause,
        token: event.happening.token(),
        outcome: event.happening.outcome(),
        description: describe(event, cast, network),
        sent: what_it_sent(event, network),
        violated: event.violated,
        broke: event.broke,
        details: event.happening,
    }
}

/// One line of the CLI's text rendering: time, actor, description, and what broke.
pub fn text_line(event: &TraceEvent, cast: &Cast, network: &Network) -> String {
    let mut line = format!(
        "{:>4} {:>8} ms  {:<13} {}",
        event.id.0,
        event.time.0,
        cast.name(event.actor),
        describe(event, cast, network)
    );
    for invariant in event.broke.iter() {
        line.push_str(&format!("\n{:>29}✗ violated: {invariant}", ""));
    }
    line
}

impl TraceExport {
    /// `sim`'s trace in its self-describing, serialisable form.
    pub fn of(sim: &Sim, scenario_id: &str) -> TraceExport {
        TraceExport {
            format: TRACE_FORMAT_VERSION,
            scenario: scenario_id.to_owned(),
            seed: sim.seed(),
            hash: sim.hash(),
            nodes: sim
                .cast()
                .nodes()
                .map(|n| sim.cast().name(n).to_owned())
                .collect(),
            events: sim
                .trace()
                .iter()
                .map(|e| export_event(e, sim.cast(), sim.network()))
                .collect(),
            source: None,
        }
    }
}

/// `sim`'s trace as text, one event per line.
pub fn trace_text(sim: &Sim) -> String {
    let mut text = String::new();
    for event in sim.trace() {
        text.push_str(&text_line(event, sim.cast(), sim.network()));
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::catalogue;

    fn exported(id: &str) -> (Sim, TraceExport) {
        let scenario = catalogue::find(id)
            .expect("built in")
            .load()
            .expect("parses");
        let mut sim = Sim::new(&scenario).expect("valid");
        sim.run_to_end();
        let export = TraceExport::of(&sim, id);
        (sim, export)
    }

    /// S2's first grant: lock-service tells client-a (node 2) it holds the lock with token 33.
    #[test]
    fn a_grant_is_exported_with_its_recipient_reply_and_token() {
        let (_, export) = exported("s2-gc-pause-fenced");
        assert_eq!(export.format, 2);
        assert_eq!(
            export.events[1].sent,
            [SentMessage {
                id: MessageId(1),
                to: NodeId(2),
                kind: PayloadKind::AcquireReply,
                reply: Some(Reply::Granted),
                token: Some(FencingToken(33)),
            }]
        );
    }

    /// Format 2 lists the same messages format 1 numbered, in the same order, so that a
    /// `cause` and an intervention still name them, each sent by the event's actor.
    #[test]
    fn the_export_lists_the_messages_format_1_numbered() {
        for id in [
            "s2-gc-pause-fenced",
            "s16-consensus-fair-queue",
            "s10-redlock-clock-jump",
        ] {
            let (sim, export) = exported(id);
            for (event, exported) in sim.trace().iter().zip(&export.events) {
                let ids: Vec<MessageId> = exported.sent.iter().map(|m| m.id).collect();
                assert_eq!(ids, event.sent_messages().collect::<Vec<_>>(), "{id}");
                for message in &exported.sent {
                    let sent = &sim.network().messages()[message.id.index()];
                    assert_eq!(message.to, sent.to, "{id}");
                    assert_eq!(sent.from, event.actor, "{id}: sent by the event's actor");
                }
            }
        }
    }

    /// The hash covers the run, not its export: S2's is the one its format 1 trace has
    /// (`tests/corpus/trace/v1/cli-s2-gc-pause-fenced.json`).
    #[test]
    fn format_2_exports_the_hash_format_1_did() {
        let (sim, export) = exported("s2-gc-pause-fenced");
        assert_eq!(sim.hash(), "b4d9006bf87554f8");
        assert_eq!(export.hash, sim.hash());
    }

    /// A message without an answer or a token leaves those fields out, as the format says.
    #[test]
    fn an_exported_message_leaves_out_what_it_does_not_carry() {
        let (_, export) = exported("s2-gc-pause-fenced");
        let json = serde_json::to_string(&export.events[0].sent).expect("serialises");
        assert_eq!(json, r#"[{"id":0,"to":0,"kind":"acquire"}]"#);
        let json = serde_json::to_string(&export.events[1].sent).expect("serialises");
        assert_eq!(
            json,
            r#"[{"id":1,"to":2,"kind":"acquire_reply","reply":"granted","token":33}]"#
        );
    }
}
