//! Interventions: the faults and teaching controls a user (or a scenario file) applies at a
//! moment of virtual time. A run is fully determined by its scenario, its seed and its
//! intervention log, so an intervention is plain, timestamped data — never a callback.
//!
//! `Action<N>` is generic over how nodes are named: scenario files and links name them by string
//! (`Action<String>`), the running simulation by index (`Action<NodeId>`).

use crate::vocabulary::happening::Direction;
use crate::world::ids::{MessageId, NodeId};
use crate::world::time::{Millis, VirtualTime};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action", deny_unknown_fields)]
pub enum Action<N> {
    /// Stop the process (a stop-the-world GC pause): it handles nothing; inputs wait in its
    /// buffers. Without `for_ms` it stays paused until a `resume`.
    Pause {
        node: N,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        for_ms: Option<Millis>,
    },
    Resume {
        node: N,
    },
    /// The process dies and loses its memory; messages to it are lost until it restarts.
    Crash {
        node: N,
    },
    Restart {
        node: N,
    },
    /// Step the node's clock by `by_ms` (negative: backwards).
    ClockJump {
        node: N,
        by_ms: i64,
    },
    /// Make the node's clock run fast (positive) or slow (negative), in parts per million.
    ClockDrift {
        node: N,
        drift_ppm: i32,
    },
    /// Cut the link from `from` to `to` (and back, unless one-way).
    Partition {
        from: N,
        to: N,
        direction: Direction,
    },
    Heal {
        a: N,
        b: N,
    },
    /// Keep an in-flight message from arriving until released.
    Hold {
        message: MessageId,
    },
    Release {
        message: MessageId,
    },
    Drop {
        message: MessageId,
    },
    /// End the current lease at the lock service now.
    ForceExpire {},
    /// Promote the replica of a replicated lock service in place of its primary.
    Failover {},
}

impl<N> Action<N> {
    /// The same action with its node references mapped, failing on the first that does not map.
    pub fn try_map<M, E>(self, mut map: impl FnMut(N) -> Result<M, E>) -> Result<Action<M>, E> {
        Ok(match self {
            Action::Pause { node, for_ms } => Action::Pause {
                node: map(node)?,
                for_ms,
            },
            Action::Resume { node } => Action::Resume { node: map(node)? },
            Action::Crash { node } => Action::Crash { node: map(node)? },
            Action::Restart { node } => Action::Restart { node: map(node)? },
            Action::ClockJump { node, by_ms } => Action::ClockJump {
                node: map(node)?,
                by_ms,
            },
            Action::ClockDrift { node, drift_ppm } => Action::ClockDrift {
                node: map(node)?,
                drift_ppm,
            },
            Action::Partition {
                from,
                to,
                direction,
            } => Action::Partition {
                from: map(from)?,
                to: map(to)?,
                direction,
            },
            Action::Heal { a, b } => Action::Heal {
                a: map(a)?,
                b: map(b)?,
            },
            Action::Hold { message } => Action::Hold { message },
            Action::Release { message } => Action::Release { message },
            Action::Drop { message } => Action::Drop { message },
            Action::ForceExpire {} => Action::ForceExpire {},
            Action::Failover {} => Action::Failover {},
        })
    }
}

/// One entry of the intervention log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Intervention<N = NodeId> {
    pub at_ms: VirtualTime,
    #[serde(rename = "do")]
    pub action: Action<N>,
}
