//! `cargo xtask bench`: the project's benchmarks, which measure and print but judge nothing (a
//! slow result is not a failure).
//!
//! 1. The simulation's native benchmarks, `cargo bench -p lockstep-sim` (the `bench` profile
//!    inherits the speed-tuned `release`; only the page's wasm is built for size): events per second
//!    (`throughput`), the run the page is compared with (`in_page_reference`), and 1,000 of the
//!    article's chaos runs judged and reported on all cores (`chaos_runs`, issue 14's native
//!    target). Extra arguments go to cargo bench. Says so, and fails, when the crate has no
//!    benchmark yet. Then the counterexample search natively beside Stateright's checker
//!    ([`crate::bench_search`]).
//! 2. The app's: the release site, built into `dist/` as `cargo xtask test` builds it, with the
//!    size report of `cargo xtask dist` and the wasm's composition ([`composition`]). Then five
//!    scripts in `e2e/` against that site in headless Chromium (installed first, as `cargo xtask
//!    test` does; see [`tools`]):
//!    - `bench-step-latency.mjs`: the latency of the controls (Step, Back, the scrubber) on an
//!      18,000-event sandbox run, whose trace it checks against the native CLI's;
//!    - `bench-wasm-speed.mjs`: the simulator in the page against native on the same chaos run
//!      (the app's wasm export `lockstepChaosRuns` timed from JavaScript; natively `cargo bench
//!      -p lockstep-sim --bench in_page_reference`), failing unless both ran the same run;
//!    - `bench-lab.mjs`: the chaos lab in the page, 1,000 runs of the article's chaos test from
//!      pressing Run to done (its Web Workers included), failing unless every round agrees; then
//!      how soon the page answers a click and Stop while the workers compute, and how soon the
//!      batches under way at Stop come back;
//!    - `bench-search.mjs`: the counterexample search's states per second in the page (its
//!      worker) beside native and Stateright, failing unless page and native explored the same
//!      states; then how soon Stop is shown, and the slice under way comes back;
//!    - `bench-load.mjs`: the first load under the DevTools protocol's network and CPU emulation
//!      (bytes before the playground is interactive, first meaningful paint, interactive), with
//!      issue 11's targets beside the figures.

use std::fs;
use std::process::Command;

use crate::composition;
use crate::dist;
use crate::error::Error;
use crate::process::{self, say};
use crate::tools;
use crate::workspace::Workspace;

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    simulation(workspace, args)?;
    eprintln!();
    crate::bench_search::native(workspace)?;
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
    let declares_bench =
        crate::toml_file::read_toml::<toml::Table>(&manifest)?.contains_key("bench");
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
    process::run(
        browser_benchmark(
            workspace,
            "bench-step-latency.mjs",
            "the app's step latency",
        )
        .env("LOCKSTEP_CLI", &cli),
    )?;
    process::run(&mut browser_benchmark(
        workspace,
        "bench-wasm-speed.mjs",
        "the simulator in the page against native",
    ))?;
    process::run(&mut browser_benchmark(
        workspace,
        "bench-lab.mjs",
        "the chaos lab in the page",
    ))?;
    process::run(&mut browser_benchmark(
        workspace,
        "bench-search.mjs",
        "the counterexample search in the page beside native and Stateright",
    ))?;
    process::run(&mut browser_benchmark(
        workspace,
        "bench-load.mjs",
        "the first load on a throttled link",
    ))
}

/// `node <script>` in `e2e/`, against the release site in `dist/` and the machine's Chromium,
/// announced with what it measures.
fn browser_benchmark(workspace: &Workspace, script: &str, what: &str) -> Command {
    say(format!("measuring {what} (node {script} in e2e/)"));
    let mut command = workspace.command("node");
    command
        .arg(script)
        .current_dir(workspace.join("e2e"))
        .env("LOCKSTEP_DIST", workspace.join("dist"))
        .env("LOCKSTEP_CHROMIUM", tools::CHROMIUM);
    command
}
