//! Which etcd a run starts. Debian 12 packages etcd 3.4.23, whose lock API still tells a waiter
//! whose lease ran out that it holds the lock (the bug Jepsen found, in every etcd 3.4.x: the
//! check of etcd PR #11408 first shipped in 3.5.0 and was never backported); Debian 13
//! packages 3.5.16, whose lock API checks that the waiter's key still exists before it
//! answers. A scenario that reproduces the bug runs on the first; every other etcd scenario on
//! the second, as a user of etcd today would.
//!
//! `cargo xtask` installs the first with apt-get, and unpacks the second from Debian's package
//! (`dpkg-deb -x`, its checksum pinned) into [`DEBIAN_13_DIR`] without installing it: the two
//! releases cannot be installed side by side. This module must not fetch anything itself.

use crate::server::ServerError;
use std::path::{Path, PathBuf};

/// Where `cargo xtask` unpacks Debian 13's `etcd-server` (xtask's `tools.rs` names the same
/// directory): the program is `usr/bin/etcd` under it.
pub const DEBIAN_13_DIR: &str = "/usr/local/lib/lockstep/etcd-server_3.5.16-4";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EtcdRelease {
    /// Debian 12's `etcd-server`, 3.4.23: the lock API without the re-check.
    Debian12,
    /// Debian 13's `etcd-server`, 3.5.16: the lock API with it.
    Debian13,
}

impl EtcdRelease {
    pub fn program(self) -> PathBuf {
        match self {
            EtcdRelease::Debian12 => PathBuf::from("/usr/bin/etcd"),
            EtcdRelease::Debian13 => Path::new(DEBIAN_13_DIR).join("usr/bin/etcd"),
        }
    }

    /// The program, or why it is not there and what puts it there.
    pub fn installed(self) -> Result<PathBuf, ServerError> {
        let program = self.program();
        if program.exists() {
            return Ok(program);
        }
        let missing = program.display().to_string();
        Err(match self {
            EtcdRelease::Debian12 => ServerError::NotInstalled {
                missing,
                package: "etcd-server",
            },
            EtcdRelease::Debian13 => ServerError::NotUnpacked {
                missing,
                what: "Debian 13's etcd-server 3.5.16",
            },
        })
    }
}
