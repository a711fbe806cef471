//! What the real servers share: why one could not be started, a free loopback port, what a
//! program says its version is, and pausing a server's process (`SIGSTOP`, then `SIGCONT`).
//! Each server's own module starts and stops it.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use thiserror::Error;

/// Why a server could not be started, or could not be made to do what a fault says.
#[derive(Debug, Error)]
pub enum ServerError {
    /// Its program is missing: `missing` names the file, `package` the Debian package.
    #[error("{package} is not installed (no {missing}): apt-get install {package}")]
    NotInstalled {
        missing: String,
        package: &'static str,
    },
    /// A server that `cargo xtask` unpacks from a Debian package (not installs) is not there.
    #[error("{what} is not unpacked (no {missing}): `cargo xtask real` unpacks it")]
    NotUnpacked { missing: String, what: &'static str },
    /// A program could not be run, or a file written: what, and why.
    #[error("{0}")]
    Io(String),
    /// `initdb` failed, with what it printed.
    #[error("initdb failed: {0}")]
    Initdb(String),
    /// The server did not answer in time; what it logged, if anything.
    #[error("{server} did not answer in time. {log}")]
    NotReady { server: &'static str, log: String },
    /// `kill -STOP` or `kill -CONT` of a server's process failed.
    #[error("kill {flag} {pid} failed ({status})")]
    Signal {
        flag: &'static str,
        pid: u32,
        status: ExitStatus,
    },
    /// A fault names a node the run did not start.
    #[error("no node {0}")]
    NoNode(String),
    /// A fault needs servers the run did not start: which.
    #[error("no {0} were started")]
    NotStarted(&'static str),
    /// A clock jump on a server started without the clock shim.
    #[error("this server's clock was started without the clock shim")]
    NoClockShim,
    /// The clock shim's offset could not be written.
    #[error("could not step the server's clock: {0}")]
    Clock(std::io::Error),
    /// A command to Redis itself (not a client's request) failed: a promotion, `MONITOR`.
    #[error("Redis: {0}")]
    Redis(#[from] redis::RedisError),
    /// The link a replica replicates through (which the run slows) could not be opened.
    #[error(transparent)]
    Link(#[from] crate::link::LinkError),
    /// The thread that collects `MONITOR`'s lines panicked.
    #[error("the MONITOR thread panicked")]
    MonitorPanicked,
}

/// "could not {what}: {error}".
pub(crate) fn io(what: &str, error: &std::io::Error) -> ServerError {
    ServerError::Io(format!("could not {what}: {error}"))
}

/// A loopback port nobody listens on now.
pub(crate) fn free_port() -> Result<u16, ServerError> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| io("find a free port", &e))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| io("find a free port", &e))
}

/// What `program --version` prints, or nothing.
pub(crate) fn version_said(program: &Path) -> String {
    Command::new(program)
        .arg("--version")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
        .unwrap_or_default()
}

/// A server process stopped by the kernel, as a long GC pause or a hung VM stops it: it holds
/// its sockets and answers nothing until it is resumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// `SIGSTOP`.
    Pause,
    /// `SIGCONT`.
    Resume,
}

/// Sends `process` the signal `stopped` says, with the system's `kill`.
pub(crate) fn signal(process: &Child, stopped: Stopped) -> Result<(), ServerError> {
    let flag = match stopped {
        Stopped::Pause => "-STOP",
        Stopped::Resume => "-CONT",
    };
    let status = Command::new("kill")
        .arg(flag)
        .arg(process.id().to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| ServerError::Io(format!("could not run kill {flag}: {e}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(ServerError::Signal {
            flag,
            pid: process.id(),
            status,
        })
    }
}
