//! The trace: the ordered record of every event of a run. It is the only thing the UI reads.
//!
//! A [`TraceEvent`] is small, fixed-size data (no strings), so recording costs a vector push.
//! Words are produced on demand by `describe`, and [`TraceExport`] is the serialisable form with
//! descriptions and names filled in (the JSON documented in `docs/trace-format.md`).

use crate::vocabulary::happening::{Happening, Input};
use crate::vocabulary::invariant::InvariantSet;
use crate::world::ids::{EventId, MessageId, NodeId};
use crate::world::network::{MessageRecord, Network};
use crate::world::time::VirtualTime;
use serde::{Deserialize, Serialize};

/// Why a node acted: which input it was handling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// A message arrived, or a timer fired.
    Input(Input),
    /// An input that had waited in a paused node's buffer was handed over on resume.
    Resumed(Input),
    /// The intervention with this index in the run's log.
    Intervention(u32),
    /// A pause with a set length ran out.
    PauseEnded,
    /// The replicated service's monitor (Sentinel) acted on a primary that stayed down.
    Monitor,
    /// A node's delayed restart came due.
    DelayedRestart,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceEvent {
    pub id: EventId,
    pub time: VirtualTime,
    pub actor: NodeId,
    pub cause: Cause,
    pub happening: Happening,
    /// The messages this event sent: ids `first_sent .. first_sent + sent`.
    pub first_sent: MessageId,
    pub sent: u16,
    /// Invariants violated after this event.
    pub violated: InvariantSet,
    /// Invariants this event broke.
    pub broke: InvariantSet,
}

impl TraceEvent {
    pub fn sent_messages(&self) -> impl Iterator<Item = MessageId> {
        (self.first_sent.0..self.first_sent.0 + u32::from(self.sent)).map(MessageId)
    }

    /// The messages this event sent, as the run's network recorded them.
    pub fn sent_records<'a>(
        &self,
        network: &'a Network,
    ) -> impl Iterator<Item = &'a MessageRecord> {
        network
            .messages()
            .iter_from(self.first_sent.index())
            .take(usize::from(self.sent))
    }
}

/// A stable 64-bit hash of a trace (FNV-1a over the canonical JSON of its events), printed as 16
/// hex digits. Native and wasm builds must agree on it; golden tests pin it.
pub fn trace_hash(events: &[TraceEvent]) -> String {
    let bytes = serde_json::to_vec(events).unwrap_or_default();
    format!("{:016x}", fnv1a64(&bytes))
}

fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_matches_the_reference_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
