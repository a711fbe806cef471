//! Redlock over independent Redis nodes (the Redis documentation's "The Redlock algorithm"):
//! each client asks every node at once with `SET key value NX PX ttl`, waits for the answers
//! at most its node timeout, and holds the lock if a majority said yes and some validity is
//! left (`ttl − elapsed − drift`, drift `ttl / 100 + 2` ms, as antirez's redlock-rb); otherwise
//! it unlocks every node. Each client reaches each node through a [`Link`] of its own, so a
//! partition cuts exactly the scenario's links; a node whose clock the scenario jumps runs on
//! the clock shim. A node the scenario crashes is killed (`SIGKILL`) and restarted on its port,
//! empty; a client whose connection to it broke connects again through its link and asks once
//! more, as redis-rb (redlock-rb's client) does. Every request to a node is recorded with the
//! node's name.

use super::clock::ClockShim;
use super::lock::{release, set_nx};
use super::server::{RedisServer, named_connection};
use crate::link::{CutSwitch, Link};
use crate::lock::{Grant, RequestError, acquire_request};
use crate::plan::RealTokens;
use crate::record::Recorder;
use crate::server::{ServerError, Stopped};
use lockstep_sim::models::client::{ElapsedCheck, RedlockParams};
use lockstep_sim::story::recorded::Request;
use lockstep_sim::vocabulary::message::ReleaseMethod;
use lockstep_sim::world::time::Millis;
use std::sync::Mutex;
use std::thread;
use std::time::Duration;

/// The nodes, started for one run. The servers are stopped before the shim's file is removed.
pub struct RedlockNodes {
    servers: Vec<(String, Mutex<RedisServer>)>,
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
                RedisServer::start_with(&[], shim).map(|server| (name.clone(), Mutex::new(server)))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let version = servers.first().map_or_else(String::new, |(_, s)| {
            let first = s.lock().unwrap_or_else(|e| e.into_inner());
            format!("{}, {} independent nodes", first.version, servers.len())
        });
        Ok(RedlockNodes {
            servers,
            _shim: shim,
            version,
        })
    }

    /// Steps `node`'s wall clock by `by_ms`.
    pub fn jump_clock(&self, node: &str, by_ms: i64) -> Result<(), ServerError> {
        self.server(node, |server| server.jump_clock(by_ms))?
    }

    /// Stops `node`'s process, or lets it go on.
    pub fn stop(&self, node: &str, stopped: Stopped) -> Result<(), ServerError> {
        self.server(node, |server| server.stop(stopped))?
    }

    /// Kills `node` (`SIGKILL`).
    pub fn crash(&self, node: &str) -> Result<(), ServerError> {
        self.server(node, RedisServer::crash)
    }

    /// Starts `node` again on its port, empty; returns once it answers.
    pub fn restart(&self, node: &str) -> Result<(), ServerError> {
        self.server(node, RedisServer::restart)?
    }

    fn server<T>(
        &self,
        node: &str,
        act: impl FnOnce(&mut RedisServer) -> T,
    ) -> Result<T, ServerError> {
        let (_, server) = self
            .servers
            .iter()
            .find(|(name, _)| name == node)
            .ok_or_else(|| ServerError::NoNode(node.to_owned()))?;
        Ok(act(&mut server.lock().unwrap_or_else(|e| e.into_inner())))
    }
}

/// One node as one client reaches it: its link, kept for as long as the client, and the
/// connection through it (`None` once it broke, until the client connects again).
struct NodeLink {
    name: String,
    link: Link,
    client: String,
    timeout: Duration,
    connection: Option<redis::Connection>,
}

impl NodeLink {
    fn connect(&self) -> Result<redis::Connection, RequestError> {
        let connection = named_connection(self.link.port, &self.client)?;
        connection
            .set_read_timeout(Some(self.timeout))
            .and_then(|()| connection.set_write_timeout(Some(self.timeout)))?;
        Ok(connection)
    }

    /// `command` on the node; on a broken connection (not a timeout: a cut link keeps its
    /// connections), connects again and asks once more.
    fn ask<T>(
        &mut self,
        command: impl Fn(&mut redis::Connection) -> redis::RedisResult<T>,
    ) -> Result<T, RequestError> {
        let timeout_ms = u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX);
        for _ in 0..2 {
            let mut connection = match self.connection.take() {
                Some(connection) => connection,
                None => self.connect()?,
            };
            match command(&mut connection) {
                Ok(answer) => {
                    self.connection = Some(connection);
                    return Ok(answer);
                }
                Err(e) if e.is_timeout() => {
                    self.connection = Some(connection);
                    return Err(RequestError::NodeTimeout { timeout_ms });
                }
                Err(e) if e.is_connection_dropped() || e.is_io_error() => {}
                Err(e) => return Err(e.into()),
            }
        }
        Err(RequestError::BrokeTwice {
            node: self.name.clone(),
        })
    }
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
    ) -> Result<Redlock, RequestError> {
        let timeout = Duration::from_millis(params.node_timeout.0);
        let links = nodes
            .servers
            .iter()
            .map(|(name, server)| {
                let port = server.lock().unwrap_or_else(|e| e.into_inner()).port();
                let mut node = NodeLink {
                    name: name.clone(),
                    link: Link::start(port)?,
                    client: client.to_owned(),
                    timeout,
                    connection: None,
                };
                node.connection = Some(node.connect()?);
                Ok(node)
            })
            .collect::<Result<Vec<_>, RequestError>>()?;
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
            .map(|n| (n.name.clone(), n.link.switch()))
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
    ) -> Result<Option<Grant>, RequestError> {
        let value = format!("{client}:{attempt}");
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
                                node.ask(|c| {
                                    set_nx(c, key, RealTokens::None, value.clone(), ttl_ms)
                                })
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
        thread::scope(|scope| {
            let asks: Vec<_> = self
                .nodes
                .iter_mut()
                .map(|node| {
                    scope.spawn(move || {
                        recorder.request(
                            client,
                            Some(node.name.clone()),
                            || node.ask(|c| release(c, key, grant, method)),
                            |released| Request::Release(released.copied()),
                        )
                    })
                })
                .collect();
            asks.into_iter()
                .filter_map(|ask| ask.join().ok())
                .any(|answer| matches!(answer, Ok(true)))
        })
    }
}
