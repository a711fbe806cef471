//! The Redlock client's side: ask every one of N independent cache nodes, and decide by majority
//! and by the time the asking took (Redis docs, "The Redlock algorithm"; antirez's redlock-rb).
//!
//! This module only counts answers and does the arithmetic; the client decides what to do with
//! the verdict. It sends nothing and reads no clock of its own.

use crate::world::time::Millis;
use serde::{Deserialize, Serialize};

/// How a client reaches the lock: one service (whatever its replication), or Redlock over
/// several independent nodes (node ids `0..nodes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Protocol {
    /// One lock service answers each request.
    Single,
    /// One consensus service, reached through a session: while the client waits for the lock
    /// its session lease is kept alive too (etcd's keepalive runs beside the `Lock` call), so a
    /// queued waiter is not expired out of the queue.
    Session,
    Redlock(RedlockParams),
}

/// Whether the client applies Redlock's step 3: the lock counts only if the acquisition took
/// less than the lock's validity (antirez's answer to a pause during acquisition, S12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ElapsedCheck {
    On,
    Off,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RedlockParams {
    pub nodes: u8,
    pub elapsed_check: ElapsedCheck,
    /// How long the client waits for the nodes' answers before it decides with what it has.
    pub node_timeout: Millis,
}

impl RedlockParams {
    /// A majority: `N / 2 + 1`.
    pub fn quorum(&self) -> u8 {
        self.nodes / 2 + 1
    }

    /// The reference implementation's clock drift allowance: `TTL × 0.01 + 2 ms`.
    pub fn drift(ttl: Millis) -> Millis {
        Millis(ttl.0 / 100 + 2)
    }

    /// What is left of the lock's validity after `elapsed` ms of acquiring (negative: none).
    pub fn validity(ttl: Millis, elapsed: i64) -> i64 {
        ttl.as_i64() - elapsed - RedlockParams::drift(ttl).as_i64()
    }
}

/// The answers to one request sent to every node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub answered: u8,
    pub yes: u8,
}

impl Round {
    pub fn record(&mut self, yes: bool) {
        self.answered = self.answered.saturating_add(1);
        self.yes = self.yes.saturating_add(u8::from(yes));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validity_follows_the_reference_implementation() {
        // The question bank's Q6: TTL 10 000 ms, 120 ms to acquire: 10 000 - 120 - 102.
        assert_eq!(RedlockParams::validity(Millis(10_000), 120), 9_778);
    }

    #[test]
    fn the_quorum_is_a_majority() {
        let params = |nodes| RedlockParams {
            nodes,
            elapsed_check: ElapsedCheck::On,
            node_timeout: Millis(50),
        };
        assert_eq!(params(5).quorum(), 3);
        assert_eq!(params(3).quorum(), 2);
        assert_eq!(params(4).quorum(), 3);
    }
}
