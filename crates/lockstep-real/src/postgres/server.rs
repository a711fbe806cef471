//! A PostgreSQL server for one run: Debian's `postgresql` package, a data directory of its own
//! under the system's temporary directory, listening on loopback only at a free port, stopped and
//! its directory removed when the value is dropped. As root (CI), the server runs as the
//! package's `postgres` user, since PostgreSQL refuses to run as root.

use crate::server::{ServerError, free_port, io, version_said};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// Where Debian's packages put each major version's programs.
const VERSIONS: &str = "/usr/lib/postgresql";
/// How long a fresh server may take to accept connections.
const READY_WITHIN: Duration = Duration::from_secs(30);

/// Servers started by this process so far, to name their directories apart.
static STARTED: AtomicU32 = AtomicU32::new(0);

/// A running server; dropping it stops the server and removes its data.
pub struct PostgresServer {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
    process: Child,
    as_root: bool,
    /// The server's name and version, e.g. "PostgreSQL 15.18".
    pub version: String,
}

impl PostgresServer {
    /// Creates a database cluster in a new directory and starts a server on it.
    pub fn start() -> Result<PostgresServer, ServerError> {
        let bin = newest_bin().ok_or_else(|| ServerError::NotInstalled {
            missing: format!("{VERSIONS}/<version>/bin/initdb"),
            package: "postgresql",
        })?;
        let as_root = running_as_root();
        let data = std::env::temp_dir().join(format!(
            "lockstep-postgres-{}-{}",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed)
        ));
        fs::create_dir_all(&data).map_err(|e| io("create the data directory", &e))?;
        if as_root {
            run_quietly(Command::new("chown").arg("postgres:").arg(&data))?;
        }
        let initdb = program(&bin, "initdb", as_root)
            .arg("-D")
            .arg(&data)
            .args(["-U", "lockstep", "-A", "trust", "-E", "UTF8", "--no-sync"])
            .output()
            .map_err(|e| io("run initdb", &e))?;
        if !initdb.status.success() {
            let _ = fs::remove_dir_all(&data);
            return Err(ServerError::Initdb(
                String::from_utf8_lossy(&initdb.stderr).into_owned(),
            ));
        }
        let port = free_port()?;
        let log = fs::File::create(data.join("server.log"))
            .map_err(|e| io("create the server's log", &e))?;
        let process = program(&bin, "postgres", as_root)
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string(), "-c", "listen_addresses=127.0.0.1"])
            .arg("-c")
            .arg(format!("unix_socket_directories={}", data.display()))
            .args(["-c", "fsync=off"])
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| io("start postgres", &e))?;
        let version = version_of(&bin);
        let server = PostgresServer {
            bin,
            data,
            port,
            process,
            as_root,
            version,
        };
        server.wait_until_ready()?;
        Ok(server)
    }

    /// The connection string for the `lockstep` superuser.
    pub fn connection(&self) -> String {
        self.connection_via(self.port)
    }

    /// The connection string for the `lockstep` superuser through a link to the server that
    /// listens on `port`.
    pub fn connection_via(&self, port: u16) -> String {
        format!("host=127.0.0.1 port={port} user=lockstep dbname=postgres")
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    fn wait_until_ready(&self) -> Result<(), ServerError> {
        let started = Instant::now();
        while started.elapsed() < READY_WITHIN {
            if postgres::Client::connect(&self.connection(), postgres::NoTls).is_ok() {
                return Ok(());
            }
            sleep(Duration::from_millis(100));
        }
        let log = fs::read_to_string(self.data.join("server.log")).unwrap_or_default();
        Err(ServerError::NotReady {
            server: "PostgreSQL",
            log,
        })
    }
}

impl Drop for PostgresServer {
    fn drop(&mut self) {
        // A fast shutdown ends the sessions and waits for the server to exit.
        let stopped = program(&self.bin, "pg_ctl", self.as_root)
            .arg("stop")
            .arg("-D")
            .arg(&self.data)
            .args(["-m", "fast", "-w"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        if !stopped.is_ok_and(|s| s.success()) {
            let _ = self.process.kill();
        }
        let _ = self.process.wait();
        let _ = fs::remove_dir_all(&self.data);
    }
}

/// The programs of the newest major version installed.
fn newest_bin() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = fs::read_dir(VERSIONS)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let major = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").exists().then_some((major, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// `name` from `bin`, as the `postgres` user when running as root.
fn program(bin: &Path, name: &str, as_root: bool) -> Command {
    let path = bin.join(name);
    if as_root {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(path);
        command
    } else {
        Command::new(path)
    }
}

/// "PostgreSQL 15.18", from `postgres --version`'s "postgres (PostgreSQL) 15.18 (Debian …)".
fn version_of(bin: &Path) -> String {
    let said = version_said(&bin.join("postgres"));
    let number = said
        .split_whitespace()
        .nth(2)
        .unwrap_or("(version unknown)");
    format!("PostgreSQL {number}")
}

fn run_quietly(command: &mut Command) -> Result<(), ServerError> {
    let status = command.status().map_err(|e| io("run chown", &e))?;
    if status.success() {
        Ok(())
    } else {
        Err(ServerError::Io(format!("{command:?} failed ({status})")))
    }
}
