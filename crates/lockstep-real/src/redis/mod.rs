//! Redis as the lock service: one server, `SET key value NX PX ttl` to acquire, and either
//! the compare-and-delete script or a plain `DEL` to release.

mod lock;
mod server;

pub use lock::CacheLock;
pub use server::RedisServer;
