//! `cargo xtask real [--runs N] [--record] [--all]`: the reality check's conformance suite
//! (`--all`: with its long cases). Installs
//! Debian's PostgreSQL, Redis and etcd if they are missing, then runs `lockstep-real`, which
//! starts them on loopback (the Redis pairs, Redlock's nodes and etcd clusters per run), runs each case N times against them, prints the table (scenario, service,
//! runs, matches, time) and stops them, leaving nothing running. `--record` writes each case's
//! first matching run into the site's content (`content/recorded/`), with the servers'
//! versions and the day.

use crate::error::Error;
use crate::process::{self, say};
use crate::tools;
use crate::workspace::Workspace;

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    tools::ensure_real_services(workspace)?;
    let mut passed = Vec::new();
    for arg in args {
        passed.push(arg.clone());
        if arg == "--record" {
            passed.push(workspace.join("content/recorded").display().to_string());
        }
    }
    say("running the conformance suite against real services (crates/lockstep-real)");
    process::run(
        workspace
            .cargo()
            .args([
                "run",
                "--quiet",
                "-p",
                "lockstep-real",
                "--bin",
                "lockstep-real",
                "--",
            ])
            .args(&passed),
    )
}
