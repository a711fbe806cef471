//! `cargo xtask bench`: the project's benchmarks, which measure and print but judge nothing (a
//! slow result is not a failure).
//!
//! 1. The simulation's native benchmarks, `cargo bench -p lockstep-sim` (the workspace's `bench`
//!    profile tunes them for speed, where release builds are tuned for size). Extra arguments go
//!    to cargo bench. Says so, and fails, when the crate has no benchmark yet.
//! 2. The app's: the release site, built into `dist/` as `cargo xtask test` builds it, with the
//!    size report of `cargo xtask dist` and the wasm's composition ([`composition`]); then the
//!    latency of its controls (Step, Back, the scrubber) in headless Chromium, measured by
//!    `e2e/bench-step-latency.mjs` on an 18,000-event sandbox run, whose trace it checks against
//!    the native CLI's. It installs what that needs first, as `cargo xtask test` does (see
//!    [`tools`]). Then the simulator's speed
//!    in the page against native on the same chaos run ([`sim_in_page`]); last, the first load of
//!    the same site on a throttled link ([`load`]).

mod load;

use std::fs;

use crate::composition;
use crate::dist;
use crate::error::Error;
use crate::process::{self, say};
use crate::sim_in_page;
use crate::tools;
use crate::workspace::Workspace;

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    simulation(workspace, args)?;
    eprintln!();
    app(workspace)
}

/// `cargo bench -p lockstep-sim`, with `args` appended.
fn simulation(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    let crate_dir = workspace.join("crates/lockstep-sim");
    let has_benches_dir = fs::read_dir(crate_dir.join("benches")).is_ok_and(|mut entries| {
        entries.any(|entry| {
            entry.is_ok_and(|entry| entry.path().extension().is_some_and(|ext| ext == "rs"))
        })
    });
    let manifest = crate_dir.join("Cargo.toml");
    let declares_bench = fs::read_to_string(&manifest)
        .map_err(Error::io(format!("reading {}", manifest.display())))?
        .lines()
        .any(|line| line.trim() == "[[bench]]");
    if !has_benches_dir && !declares_bench {
        return Err(Error::NoBench { crate_dir });
    }
    say("running the simulation benchmarks");
    process::run(
        workspace
            .cargo()
            .args(["bench", "-p", "lockstep-sim"])
            .args(args),
    )
}

/// The release site and its size report (`cargo xtask dist`, which runs the same build as the
/// `build` step of `cargo xtask test`), then the browser benchmark against it, with the
/// environment that the `browser` step of `cargo xtask test` gives the browser tests.
fn app(workspace: &Workspace) -> Result<(), Error> {
    say("the app: a release build and its size, then its latency in headless Chromium");
    dist::run(workspace, &[])?;
    composition::report(workspace)?;
    tools::ensure_chromium(workspace)?;
    tools::ensure_e2e_harness(workspace)?;
    say("building the native CLI, which checks the benchmark's run against the page's");
    process::run(workspace.cargo().args(["build", "-p", "lockstep-cli"]))?;
    let cli = workspace
        .target_dir()
        .join("debug")
        .join(format!("lockstep-cli{}", std::env::consts::EXE_SUFFIX));
    say("measuring the app's step latency (node bench-step-latency.mjs in e2e/)");
    process::run(
        workspace
            .command("node")
            .arg("bench-step-latency.mjs")
            .current_dir(workspace.join("e2e"))
            .env("LOCKSTEP_CLI", &cli)
            .env("LOCKSTEP_DIST", workspace.join("dist"))
            .env("LOCKSTEP_CHROMIUM", tools::CHROMIUM),
    )?;
    sim_in_page::run(workspace)?;
    load::run(workspace)
}
