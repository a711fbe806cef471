//! A Redis server for one run: Debian's `redis-server`, on loopback at a free port, with no
//! persistence, working in a directory of its own under the system's temporary directory,
//! stopped and its directory removed when the value is dropped.
//!
//! The directory matters even with persistence off: a replica's full synchronisation writes the
//! primary's snapshot as `dump.rdb` in the server's working directory, which would otherwise be
//! the caller's (once, the repository's root).

use super::clock::{ClockShim, NodeClock};
use crate::server::{ServerError, Stopped, free_port, io, signal, version_said};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant};

const PROGRAM: &str = "/usr/bin/redis-server";
const READY_WITHIN: Duration = Duration::from_secs(10);
/// Numbers the servers of this process, for their directories' names.
static STARTED: AtomicU32 = AtomicU32::new(0);

pub struct RedisServer {
    port: u16,
    process: Child,
    /// The server's working directory, removed with it.
    dir: PathBuf,
    /// Its wall clock, where it can be made to jump.
    clock: Option<NodeClock>,
    /// The arguments it was started with besides its port and directory, to restart it alike.
    extra: Vec<String>,
    /// "Redis 7.0.15", from `redis-server --version`.
    pub version: String,
}

impl RedisServer {
    pub fn start() -> Result<RedisServer, ServerError> {
        RedisServer::start_with(&[], None)
    }

    /// A server started with `extra` arguments besides its port and persistence off (a
    /// replica's `--replicaof`), and, given a `shim`, a wall clock that [`Self::jump_clock`]
    /// can make jump.
    pub fn start_with(
        extra: &[String],
        shim: Option<&ClockShim>,
    ) -> Result<RedisServer, ServerError> {
        if !Path::new(PROGRAM).exists() {
            return Err(ServerError::NotInstalled {
                missing: PROGRAM.to_owned(),
                package: "redis-server",
            });
        }
        let port = free_port()?;
        let dir = std::env::temp_dir().join(format!(
            "lockstep-redis-{}-{}",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed)
        ));
        fs::create_dir_all(&dir).map_err(|e| io("create the server's directory", &e))?;
        let clock = shim.map(|shim| NodeClock::new(shim, &dir)).transpose()?;
        let process = spawn(port, &dir, clock.as_ref(), extra).inspect_err(|_| {
            let _ = fs::remove_dir_all(&dir);
        })?;
        let server = RedisServer {
            port,
            process,
            dir,
            clock,
            extra: extra.to_vec(),
            version: version(),
        };
        server.wait_until_ready()?;
        Ok(server)
    }

    /// Starts the server again after [`Self::crash`], on the same port, in the same directory,
    /// with the same arguments: with persistence off, it starts empty, as a node restarted
    /// without its data does. Returns once it answers.
    pub fn restart(&mut self) -> Result<(), ServerError> {
        self.process = spawn(self.port, &self.dir, self.clock.as_ref(), &self.extra)?;
        self.wait_until_ready()
    }
}

/// `redis-server` on loopback at `port`, working in `dir`, persistence off, on `clock` if any.
fn spawn(
    port: u16,
    dir: &Path,
    clock: Option<&NodeClock>,
    extra: &[String],
) -> Result<Child, ServerError> {
    let mut command = Command::new(PROGRAM);
    if let Some(clock) = clock {
        command.envs(clock.env());
    }
    command
        .arg("--dir")
        .arg(dir)
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| io("start redis-server", &e))
}

/// A connection to the Redis at `port` on loopback, named `client` (`CLIENT SETNAME`), as a
/// well-behaved client names itself, so that `MONITOR` and `CLIENT LIST` say whose it is.
pub fn named_connection(port: u16, client: &str) -> redis::RedisResult<redis::Connection> {
    let mut connection = redis::Client::open(format!("redis://127.0.0.1:{port}/"))
        .and_then(|c| c.get_connection_with_timeout(Duration::from_secs(2)))?;
    redis::cmd("CLIENT")
        .arg("SETNAME")
        .arg(client)
        .query::<String>(&mut connection)?;
    Ok(connection)
}

impl RedisServer {
    pub fn connect(&self) -> redis::RedisResult<redis::Connection> {
        redis::Client::open(format!("redis://127.0.0.1:{}/", self.port))
            .and_then(|client| client.get_connection())
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Steps the server's wall clock by `by_ms` (forward when positive), as an NTP step or an
    /// administrator would: keys expire by it.
    pub fn jump_clock(&self, by_ms: i64) -> Result<(), ServerError> {
        self.clock
            .as_ref()
            .ok_or(ServerError::NoClockShim)?
            .jump(by_ms)
    }

    /// Stops the server's process (`SIGSTOP`) or lets it go on (`SIGCONT`).
    pub fn stop(&self, stopped: Stopped) -> Result<(), ServerError> {
        signal(&self.process, stopped)
    }

    /// Kills the server at once (`SIGKILL`): a crash, with nothing written after.
    pub fn crash(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }

    fn wait_until_ready(&self) -> Result<(), ServerError> {
        let started = Instant::now();
        while started.elapsed() < READY_WITHIN {
            if let Ok(mut connection) = self.connect()
                && redis::cmd("PING").query::<String>(&mut connection).is_ok()
            {
                return Ok(());
            }
            sleep(Duration::from_millis(50));
        }
        Err(ServerError::NotReady {
            server: "Redis",
            log: String::new(),
        })
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// "Redis 7.0.15", from "Redis server v=7.0.15 sha=…".
fn version() -> String {
    let said = version_said(Path::new(PROGRAM));
    let number = said
        .split_whitespace()
        .find_map(|word| word.strip_prefix("v="))
        .unwrap_or("(version unknown)");
    format!("Redis {number}")
}
