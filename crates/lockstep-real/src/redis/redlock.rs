//! Redlock over independent Redis nodes (the Redis documentation's "The Redlock algorithm"):
//! each client asks every node at once with `SET key value NX PX ttl`, waits for the answers
//! at most its node timeout, and holds the lock if a majority said yes and some validity is
//! left (`ttl − elapsed − drift`, drift `ttl / 100 + 2` ms, as antirez's redlock-rb); otherwise
//! it unlocks every node. Each client reaches each node through a [`Link`] of its own, so a
//! partition cuts exactly the scenario's links; a node whose clock the scenario jumps runs on
//! the clock shim. Every request to a node is recorded with the node's name.

use super::clock::ClockShim;
use super::lock::{release, set_nx};
use super::server::{RedisServer, named_connection};
use crate::link::{CutSwitch, Link};
use crate::lock::{Grant, acquire_request};
use crate::plan::RealTokens;
use crate::record::Recorder;
use crate::server::ServerError;
use lockstep_sim::models::client::{ElapsedCheck, RedlockParams};
use lockstep_sim::story::recorded::Request;
use lockstep_sim::vocabulary::message::ReleaseMethod;
use lockstep_sim::world::time::Millis;
use std::thread;
use std::time::Duration;

/// The nodes, started for one run. The servers are stopped before the shim's file is removed.
pub struct RedlockNodes {
    servers: Vec<(String, RedisServer)>,
    _shim: Option<ClockShim>,
    /// "Redis 7.0.15, 5 independent nodes".
    pub version: String,
}

impl RedlockNodes {
    /// Starts one server per name; those in `jumping` on the clock shim.
    pub fn start(names: &[String], jumping: &[String]) -> Result<RedlockNodes, ServerError> {
        let shim = if jumping.is_empty() {
            None
        } else {
            Some(ClockShim::build()?)
        };
        let servers = names
            .iter()
            .map(|name| {
                let shim = shim.as_ref().filter(|_| jumping.contains(name));
                RedisServer::start_with(&[], shim).map(|server| (name.clone(), server))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let version = servers.first().map_or_else(String::new, |(_, s)| {
            format!("{}, {} independent nodes", s.version, servers.len())
        });
        Ok(RedlockNodes {
            servers,
            _shim: shim,
            version,
        })
    }

    /// Steps `node`'s wall clock by `by_ms`.
    pub fn jump_clock(&self, node: &str, by_ms: i64) -> Result<(), String> {
        self.servers
            .iter()
            .find(|(name, _)| name == node)
            .ok_or_else(|| format!("no node {node}"))?
            .1
            .jump_clock(by_ms)
    }
}

/// One node as one client reaches it.
struct NodeLink {
    name: String,
    connection: redis::Connection,
    switch: CutSwitch,
}

/// One client's Redlock: a link and a connection to every node.
pub struct Redlock {
    key: String,
    nodes: Vec<NodeLink>,
    params: RedlockParams,
}

impl Redlock {
    /// Connects `client` to every node, each through a link of its own, with the node timeout
    /// as every request's timeout.
    pub fn connect(
        nodes: &RedlockNodes,
        client: &str,
        key: &str,
        params: RedlockParams,
    ) -> Result<Redlock, String> {
        let timeout = Duration::from_millis(params.node_timeout.0);
        let links = nodes
            .servers
            .iter()
            .map(|(name, server)| {
                let link = Link::start(server.port()).map_err(|e| e.to_string())?;
                let connection = named_connection(link.port, client)?;
                connection
                    .set_read_timeout(Some(timeout))
                    .and_then(|()| connection.set_write_timeout(Some(timeout)))
                    .map_err(|e| e.to_string())?;
                Ok(NodeLink {
                    name: name.clone(),
                    connection,
                    switch: link.switch(),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Redlock {
            key: key.to_owned(),
            nodes: links,
            params,
        })
    }

    /// The switch that cuts this client's link to each node, by the node's name.
    pub fn switches(&self) -> Vec<(String, CutSwitch)> {
        self.nodes
            .iter()
            .map(|n| (n.name.clone(), n.switch.clone()))
            .collect()
    }

    /// Asks every node at once; holds the lock with a majority and validity left, and unlocks
    /// every node otherwise.
    pub fn acquire(
        &mut self,
        recorder: &Recorder,
        client: &str,
        attempt: u32,
        ttl_ms: u64,
    ) -> Result<Option<Grant>, String> {
        let value = format!("{client}:{attempt}");
        let timeout = self.params.node_timeout.0;
        let started = recorder.now_ms();
        let key = self.key.as_str();
        let yes = thread::scope(|scope| {
            let asks: Vec<_> = self
                .nodes
                .iter_mut()
                .map(|node| {
                    let value = value.clone();
                    scope.spawn(move || {
                        recorder.request(
                            client,
                            Some(node.name.clone()),
                            || {
                                set_nx(&mut node.connection, key, RealTokens::None, value, ttl_ms)
                                    .map_err(|e| unanswered(&e, timeout))
                            },
                            |answer| acquire_request(answer, ttl_ms),
                        )
                    })
                })
                .collect();
            asks.into_iter()
                .filter_map(|ask| ask.join().ok())
                .filter(|answer| matches!(answer, Ok(Some(_))))
                .count()
        });
        let elapsed = i64::try_from(recorder.now_ms() - started).unwrap_or(i64::MAX);
        let validity = RedlockParams::validity(Millis(ttl_ms), elapsed);
        let grant = Grant { token: None, value };
        let in_time = validity > 0 || self.params.elapsed_check == ElapsedCheck::Off;
        if yes >= usize::from(self.params.quorum()) && in_time {
            return Ok(Some(grant));
        }
        self.release(recorder, client, &grant, ReleaseMethod::IfStillMine);
        Ok(None)
    }

    /// Unlocks every node at once; whether any let the lock go.
    pub fn release(
        &mut self,
        recorder: &Recorder,
        client: &str,
        grant: &Grant,
        method: ReleaseMethod,
    ) -> bool {
        let key = self.key.as_str();
        let timeout = self.params.node_timeout.0;
        thread::scope(|scope| {
            let asks: Vec<_> = self
                .nodes
                .iter_mut()
                .map(|node| {
                    scope.spawn(move || {
                        recorder.request(
                            client,
                            Some(node.name.clone()),
                            || {
                                release(&mut node.connection, key, grant, method)
                                    .map_err(|e| unanswered(&e, timeout))
                            },
                            |released| Request::Release(released.copied()),
                        )
                    })
                })
                .collect();
            asks.into_iter()
                .filter_map(|ask| ask.join().ok())
                .any(|answer| answer == Ok(true))
        })
    }
}

/// Why a node's request has no answer: the node timeout, which a cut link always meets, said so;
/// anything else as the client library says it.
fn unanswered(error: &redis::RedisError, timeout_ms: u64) -> String {
    if error.is_timeout() {
        format!("no answer within the node timeout ({timeout_ms} ms)")
    } else {
        error.to_string()
    }
}
