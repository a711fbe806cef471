//! The first load under a throttled link: `e2e/bench-load.mjs` against the release site in
//! `dist/` (built and stamped by the caller), in headless Chromium with the DevTools protocol's
//! network and CPU emulation. It prints bytes before the playground is interactive, the first
//! meaningful paint and the moment the playground is interactive, with issue 11's targets
//! beside them; like the rest of `cargo xtask bench`, it judges nothing.

use crate::error::Error;
use crate::process::{self, say};
use crate::tools;
use crate::workspace::Workspace;

pub fn run(workspace: &Workspace) -> Result<(), Error> {
    say("measuring the first load on a throttled link (node bench-load.mjs in e2e/)");
    process::run(
        workspace
            .command("node")
            .arg("bench-load.mjs")
            .current_dir(workspace.join("e2e"))
            .env("LOCKSTEP_DIST", workspace.join("dist"))
            .env("LOCKSTEP_CHROMIUM", tools::CHROMIUM),
    )
}
