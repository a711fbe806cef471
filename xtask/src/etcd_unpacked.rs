//! Debian 13's etcd-server 3.5.16, unpacked beside Debian 12's 3.4.23 rather than installed
//! (the two cannot be installed side by side, and this machine's apt follows Debian 12). The
//! reality check needs both: 3.4.23's lock API still grants a waiter whose lease ran out (the
//! bug of S18, in every 3.4.x release; Jepsen found it in 3.4.3), and 3.5's checks the waiter's
//! key first (the fixed S18). The package comes from Debian's own archive, its checksum pinned here; only its files
//! are used (`dpkg-deb -x`): nothing is installed, and no service is started.

use std::path::Path;

use crate::error::Error;
use crate::install::{Found, ensure};
use crate::process::{self, run_capturing};
use crate::workspace::Workspace;

const PACKAGE: &str = "etcd-server_3.5.16-4_amd64.deb";
const POOL: &str = "http://deb.debian.org/debian/pool/main/e/etcd/";
const SHA256: &str = "0875921bb0d023f2af9b8e15cdfbe417a03e65731345fb832c40f9c2dd72967b";
/// Where it is unpacked: `lockstep_real::etcd::DEBIAN_13_DIR` names the same directory.
const DIR: &str = "/usr/local/lib/lockstep/etcd-server_3.5.16-4";

pub(crate) fn ensure_etcd_3_5(workspace: &Workspace) -> Result<(), Error> {
    let program = Path::new(DIR).join("usr/bin/etcd");
    ensure(
        "etcd 3.5.16 (Debian 13's etcd-server, unpacked into /usr/local/lib/lockstep, not installed)",
        "an 11-MB download from deb.debian.org, a few seconds",
        || {
            Ok(if program.exists() {
                Found::Ready
            } else {
                Found::Missing
            })
        },
        || unpack(workspace),
    )
}

/// Downloads the package, checks it against the pinned checksum, and unpacks it into `DIR`
/// (through a sibling directory renamed at the end, so that a broken unpack leaves nothing).
fn unpack(workspace: &Workspace) -> Result<(), Error> {
    let download = std::env::temp_dir().join(PACKAGE);
    process::run(
        workspace
            .command("curl")
            .args([
                "--fail",
                "--silent",
                "--show-error",
                "--location",
                "--retry",
                "3",
            ])
            .arg("--output")
            .arg(&download)
            .arg(format!("{POOL}{PACKAGE}")),
    )?;
    let sum = run_capturing(workspace.command("sha256sum").arg(&download))?;
    if sum.split_whitespace().next() != Some(SHA256) {
        let _ = std::fs::remove_file(&download);
        return Err(Error::Check(format!(
            "{PACKAGE} from {POOL} has the checksum {sum}, not the pinned {SHA256}"
        )));
    }
    let partial = format!("{DIR}.partial");
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir_all(&partial).map_err(Error::io(format!("creating {partial}")))?;
    process::run(
        workspace
            .command("dpkg-deb")
            .arg("-x")
            .arg(&download)
            .arg(&partial),
    )?;
    std::fs::rename(&partial, DIR).map_err(Error::io(format!("moving {partial} to {DIR}")))?;
    std::fs::remove_file(&download).map_err(Error::io("removing the downloaded package"))
}
