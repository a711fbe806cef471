//! `cargo xtask serve`: installs what is missing, then runs `trunk serve`, which builds the app,
//! serves it on http://127.0.0.1:8080/ (see `Trunk.toml`) and rebuilds it on every change.
//! Extra arguments go to Trunk, e.g. `cargo xtask serve --port 9000`. Trunk also writes this
//! development build (debug, with a live-reload script) to `dist/`; `cargo xtask dist` and
//! `cargo xtask test` replace it with a release build.

use std::process::Stdio;

use crate::error::Error;
use crate::process::{self, say};
use crate::tools;
use crate::workspace::Workspace;

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    tools::ensure_web(workspace)?;
    say("serving the app with Trunk (Ctrl-C stops it)");
    process::run(
        workspace
            .command("trunk")
            .arg("serve")
            .args(args)
            .stdin(Stdio::inherit()),
    )
}
