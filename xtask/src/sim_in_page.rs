//! The simulator in the page against native, for `cargo xtask bench`: runs
//! `e2e/bench-wasm-speed.mjs`, which times the app's wasm export `lockstepChaosRuns` in headless
//! Chromium on the built site and the same chaos run natively (`cargo bench -p lockstep-sim
//! --bench in_page_reference`), checks that both ran the same run, and prints one row with the
//! ratio. It expects `dist/` built and Chromium and the e2e harness installed, as the step
//! latency benchmark does before it.

use crate::error::Error;
use crate::process::{self, say};
use crate::tools;
use crate::workspace::Workspace;

pub fn run(workspace: &Workspace) -> Result<(), Error> {
    say("measuring the simulator in the page against native (node bench-wasm-speed.mjs in e2e/)");
    process::run(
        workspace
            .command("node")
            .arg("bench-wasm-speed.mjs")
            .current_dir(workspace.join("e2e"))
            .env("LOCKSTEP_DIST", workspace.join("dist"))
            .env("LOCKSTEP_CHROMIUM", tools::CHROMIUM),
    )
}
