//! Redis as the lock service: one server, `SET key value NX PX ttl` to acquire, and either
//! the compare-and-delete script or a plain `DEL` to release; and its `MONITOR` stream.

mod lock;
mod monitor;
mod server;

pub use lock::CacheLock;
pub use monitor::MonitorTap;
pub use server::RedisServer;
