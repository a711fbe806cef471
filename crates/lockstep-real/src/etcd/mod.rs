//! etcd as the lock service: a three-member cluster of Debian's `etcd` on loopback
//! (`cluster.rs`), of the release the scenario needs (`release.rs`), and each client's session
//! on it (`lock.rs`) through etcd's JSON gateway over HTTP (`gateway.rs`): a lease, kept alive
//! every TTL/3, and the lock API's `Lock` with that lease, which puts the client's own waiter
//! key and waits until every lower key is gone. The token is that key's create revision (the
//! revision of `Lock`'s put, which the client reads from its key: `lock.rs`), the model's token
//! and "the revision of the lock key" etcd's maintainers say a holder checks (etcd issue
//! #11456). It is not the revision in `Lock`'s answer header, which is the store's revision
//! at the end of the wait and can be higher.
//!
//! The gateway, not gRPC: it needs no `protoc` to build and no async runtime to run.

mod cluster;
pub(crate) mod gateway;
mod lock;
mod release;

pub use cluster::EtcdCluster;
pub use lock::EtcdLock;
pub use release::{DEBIAN_13_DIR, EtcdRelease};
