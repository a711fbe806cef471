//! A Redis server for one run: Debian's `redis-server`, on loopback at a free port, with no
//! persistence, stopped when the value is dropped.

use crate::postgres::free_port;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

const PROGRAM: &str = "/usr/bin/redis-server";
const READY_WITHIN: Duration = Duration::from_secs(10);

pub struct RedisServer {
    port: u16,
    process: Child,
    /// "Redis 7.0.15", from `redis-server --version`.
    pub version: String,
}

impl RedisServer {
    pub fn start() -> Result<RedisServer, String> {
        if !Path::new(PROGRAM).exists() {
            return Err(format!(
                "Redis is not installed (no {PROGRAM}): apt-get install redis-server"
            ));
        }
        let port = free_port().map_err(|e| e.to_string())?;
        let process = Command::new(PROGRAM)
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("could not start redis-server: {e}"))?;
        let server = RedisServer {
            port,
            process,
            version: version(),
        };
        server.wait_until_ready()?;
        Ok(server)
    }

    pub fn connect(&self) -> Result<redis::Connection, String> {
        redis::Client::open(format!("redis://127.0.0.1:{}/", self.port))
            .and_then(|client| client.get_connection())
            .map_err(|e| e.to_string())
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    fn wait_until_ready(&self) -> Result<(), String> {
        let started = Instant::now();
        while started.elapsed() < READY_WITHIN {
            if let Ok(mut connection) = self.connect()
                && redis::cmd("PING").query::<String>(&mut connection).is_ok()
            {
                return Ok(());
            }
            sleep(Duration::from_millis(50));
        }
        Err("redis-server did not answer within 10 s".to_owned())
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// "Redis 7.0.15", from "Redis server v=7.0.15 sha=…".
fn version() -> String {
    let said = Command::new(PROGRAM)
        .arg("--version")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
        .unwrap_or_default();
    let number = said
        .split_whitespace()
        .find_map(|word| word.strip_prefix("v="))
        .unwrap_or("(version unknown)");
    format!("Redis {number}")
}
