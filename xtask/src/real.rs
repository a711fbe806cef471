//! `cargo xtask real [--runs N]`: the reality check's conformance suite. Installs Debian's
//! PostgreSQL and Redis if they are missing, then runs `lockstep-real`, which starts both on
//! loopback, runs each case N times against them, prints the table (scenario, service, runs,
//! matches, time) and stops them, leaving nothing running.

use crate::error::Error;
use crate::process::{self, say};
use crate::tools;
use crate::workspace::Workspace;

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    tools::ensure_real_services(workspace)?;
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
            .args(args),
    )
}
