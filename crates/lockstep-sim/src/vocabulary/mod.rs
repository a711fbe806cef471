//! The vocabulary: every message payload and every event detail that the nodes produce and the
//! trace records. Plain data, with no behaviour beyond small accessors.
//!
//! It may import only the world's plain values (`time`, `ids`, `token`); the nodes (`client`,
//! `lock_service`, `resource`, `network`, `node`) import it, never the other way round.

pub mod cache_entry;
pub mod happening;
pub mod invariant;
pub mod lock_value;
pub mod loss;
pub mod message;
pub mod next_step;
pub mod raft;
pub mod timer;
pub mod unseen_updates;
