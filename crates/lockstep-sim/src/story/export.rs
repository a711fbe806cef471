//! The trace in words and as JSON: [`TraceExport`], the serialisable form with descriptions and
//! names filled in (the JSON documented in `docs/trace-format.md`), and the CLI's text lines.

use crate::engine::sim::Sim;
use crate::engine::trace::{Cause, TraceEvent};
use crate::scenario::cast::Cast;
use crate::scenario::types::Scenario;
use crate::story::describe::describe;
use crate::vocabulary::happening::{Happening, Outcome};
use crate::vocabulary::invariant::InvariantSet;
use crate::world::ids::MessageId;
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
    pub sent: Vec<MessageId>,
    pub violated: InvariantSet,
    pub broke: InvariantSet,
    pub details: Happening,
}

pub const TRACE_FORMAT_VERSION: u32 = 1;

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
        sent: event.sent_messages().collect(),
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
