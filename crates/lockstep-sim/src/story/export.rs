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
    network
        .messages()
        .iter_from(event.first_sent.index())
        .take(usize::from(event.sent))
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
        description: describe(event.actor, &event.happening, cast, network),
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
        describe(event.actor, &event.happening, cast, network)
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
