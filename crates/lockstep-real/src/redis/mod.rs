//! Redis as the lock service: one server, or a primary and its replica with failover
//! (`replicated.rs`, the replication lag made real by a slow [`crate::link::Link`]); `SET key
//! value NX PX ttl` to acquire (with a token counter's `INCR` in the same script, where the
//! scenario counts tokens), and either the compare-and-delete script or a plain `DEL` to
//! release; and its `MONITOR` stream.

mod clock;
mod lock;
mod monitor;
mod redlock;
mod replicated;
mod server;

pub use clock::ClockShim;
pub use lock::{CacheLock, FailoverLock, counter_key};
pub use monitor::MonitorTap;
pub use redlock::{Redlock, RedlockNodes};
pub use replicated::ReplicatedRedis;
pub use server::{RedisServer, named_connection};
