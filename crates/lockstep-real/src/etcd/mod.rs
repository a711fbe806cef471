//! etcd as the lock service: a three-member cluster of Debian's `etcd` on loopback
//! (`cluster.rs`), of the release the scenario needs (`release.rs`), and each client's session on it through the `etcd-client` crate
//! (`lock.rs`): a lease, kept alive every TTL/3, and the lock API's `Lock` with that lease,
//! which puts the client's own waiter key and waits until every lower key is gone. The token
//! is the create revision of that key, as etcd's documentation says to fence with.

mod cluster;
mod lock;
mod release;

pub use cluster::EtcdCluster;
pub use lock::EtcdLock;
pub use release::{DEBIAN_13_DIR, EtcdRelease};

/// A runtime for one client's gRPC calls: one worker, so that the connection is served while
/// the client's own thread sleeps between its steps.
fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| format!("could not start a runtime for etcd's client: {e}"))
}
