//! What the real servers share: why one could not be started, a free loopback port, what a
//! program says its version is, and pausing a server's process (`SIGSTOP`, then `SIGCONT`).
//! Each server's own module starts and stops it.

use std::fmt;
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// Why a server could not be started.
#[derive(Debug)]
pub enum ServerError {
    /// Its program is missing: `missing` names the file, `package` the Debian package.
    NotInstalled {
        missing: String,
        package: &'static str,
    },
    /// A server that `cargo xtask` unpacks from a Debian package (not installs) is not there.
    NotUnpacked { missing: String, what: &'static str },
    /// A program could not be run, or a file written.
    Io(String),
    /// `initdb` failed, with what it printed.
    Initdb(String),
    /// The server did not answer in time; what it logged, if anything.
    NotReady { server: &'static str, log: String },
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerError::NotInstalled { missing, package } => {
                write!(
                    f,
                    "{package} is not installed (no {missing}): apt-get install {package}"
                )
            }
            ServerError::NotUnpacked { missing, what } => write!(
                f,
                "{what} is not unpacked (no {missing}): `cargo xtask real` unpacks it"
            ),
            ServerError::Io(why) => write!(f, "{why}"),
            ServerError::Initdb(output) => write!(f, "initdb failed: {output}"),
            ServerError::NotReady { server, log } => {
                write!(f, "{server} did not answer in time. {log}")
            }
        }
    }
}

impl std::error::Error for ServerError {}

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
pub(crate) fn signal(process: &Child, stopped: Stopped) -> Result<(), String> {
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
        .map_err(|e| format!("could not run kill {flag}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("kill {flag} {} failed ({status})", process.id()))
    }
}
