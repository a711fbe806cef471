//! A Redis primary and its replica, for the failover case: the replica follows the primary
//! through a [`Link`] that holds what the primary sends for the scenario's replication
//! lag; a crash kills the primary (`SIGKILL`); failover promotes the replica (`REPLICAOF NO
//! ONE`), as Sentinel would, which closes its link to the old primary, so whatever was still
//! held on the way is never applied. Started afresh for each run: a run kills its primary.

use super::server::{RedisServer, named_connection};
use crate::link::{Link, Way};
use crate::server::ServerError;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant};

const IN_SYNC_WITHIN: Duration = Duration::from_secs(15);

pub struct ReplicatedRedis {
    primary: Mutex<RedisServer>,
    primary_port: u16,
    replica: RedisServer,
    /// The replica's link to the primary, kept open as long as the pair.
    _replication: Link,
    promoted: AtomicBool,
    /// The scenario's names for the two nodes.
    pub primary_name: String,
    pub replica_name: String,
    /// "Redis 7.0.15, primary and replica".
    pub version: String,
}

impl ReplicatedRedis {
    /// Starts both, with `set` written on the primary first (a token counter's start), and
    /// waits until the replica has synchronised through the proxy, `set` included.
    pub fn start(
        lag: Duration,
        primary_name: &str,
        replica_name: &str,
        set: Option<(String, u64)>,
    ) -> Result<ReplicatedRedis, ServerError> {
        // A primary waits five seconds by default before it sends its first replica the data,
        // in case more replicas come to share the transfer; there is one.
        let primary = RedisServer::start_with(
            &["--repl-diskless-sync-delay".to_owned(), "0".to_owned()],
            None,
        )?;
        if let Some((key, value)) = set {
            primary
                .connect()
                .and_then(|mut c| {
                    redis::cmd("SET")
                        .arg(key)
                        .arg(value)
                        .query::<String>(&mut c)
                })
                .map_err(|e| ServerError::NotReady {
                    server: "the Redis primary",
                    log: e.to_string(),
                })?;
        }
        // The replica connects to the link (its near side); what the primary sends it is late.
        let replication = Link::start(primary.port())?;
        replication.slow(Way::Down, lag);
        let replica = RedisServer::start_with(
            &[
                "--replicaof".to_owned(),
                "127.0.0.1".to_owned(),
                replication.port.to_string(),
            ],
            None,
        )?;
        let pair = ReplicatedRedis {
            primary_port: primary.port(),
            version: format!("{}, primary and replica", primary.version),
            primary: Mutex::new(primary),
            replica,
            _replication: replication,
            promoted: AtomicBool::new(false),
            primary_name: primary_name.to_owned(),
            replica_name: replica_name.to_owned(),
        };
        pair.wait_in_sync()?;
        Ok(pair)
    }

    fn wait_in_sync(&self) -> Result<(), ServerError> {
        let started = Instant::now();
        while started.elapsed() < IN_SYNC_WITHIN {
            let info: Option<String> = self
                .replica
                .connect()
                .ok()
                .and_then(|mut c| redis::cmd("INFO").arg("replication").query(&mut c).ok());
            if info.is_some_and(|i| i.contains("master_link_status:up")) {
                return Ok(());
            }
            sleep(Duration::from_millis(50));
        }
        Err(ServerError::NotReady {
            server: "the Redis replica",
            log: "it did not synchronise with its primary".to_owned(),
        })
    }

    /// Kills the primary.
    pub fn crash_primary(&self) {
        self.primary
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .crash();
    }

    /// Promotes the replica: from now on it is the one clients reach.
    pub fn promote_replica(&self) -> Result<(), ServerError> {
        redis::cmd("REPLICAOF")
            .arg("NO")
            .arg("ONE")
            .query::<String>(&mut self.replica.connect()?)?;
        self.promoted.store(true, Ordering::SeqCst);
        Ok(())
    }

    /// The node clients reach now: its name and port.
    pub fn current(&self) -> (&str, u16) {
        if self.promoted.load(Ordering::SeqCst) {
            (&self.replica_name, self.replica.port())
        } else {
            (&self.primary_name, self.primary_port)
        }
    }

    /// A connection to the node clients reach now, named `client`.
    pub fn connect(&self, client: &str) -> redis::RedisResult<redis::Connection> {
        named_connection(self.current().1, client)
    }

    pub fn ports(&self) -> [u16; 2] {
        [self.primary_port, self.replica.port()]
    }
}
