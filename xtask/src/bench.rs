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
//!    test` does; see [`tools`]), all but one against `dist/` itself:
//!    - `bench-step-latency.mjs`: the latency of the controls (Step, Back, the scrubber) on an
//!      18,000-event sandbox run, whose trace it checks against the native CLI's;
//!    - `bench-wasm-speed.mjs`: the simulator in the page against native on the same chaos run
//!      (the app's wasm export `lockstepChaosRuns` timed from JavaScript; natively `cargo bench
//!      -p lockstep-sim --bench in_page_reference`), failing unless both ran the same run. That
//!      export is behind the app's `bench-exports` feature, so this one script runs against a
//!      second copy of the site built with it ([`bench_exports_site`]); `dist/`, which ships and
//!      whose size is reported, has no such export;
//!    - `bench-lab.mjs`: the chaos lab in the page, 1,000 runs of the article's chaos test from
//!      pressing Run to done (its Web Workers included), failing unless every round agrees; then
//!      how soon the page answers a click and Stop while the workers compute, and how soon the
//!      batches under way at Stop come back;
//!    - `bench-search.mjs`: the counterexample search's states per second in the page (its
//!      worker) beside native and Stateright, failing unless page and native explored the same
//!      states; then how soon Stop is shown, and the slice under way comes back;
//!    - `bench-load.mjs`: the first load under the DevTools protocol's network and CPU emulation
//!      (bytes before the playground is interactive, first meaningful paint, interactive), with
//!      issue 11's targets beside the figures; then what a reader gets, with issue 27's: three
//!      embeds on a docs page of another origin (the first's bytes and time to interactive, what
//!      the others download again) and the wait for each feature opened for the first time; then
//!      the first readable story (issue 41: `bench-first-story.mjs`) of the playground, a
//!      scenario's page, a lesson step's and an embed, from a server that gzips and one that
//!      does not: bytes before it, time to it, and time to interactive.
//!
//! `--write` also writes what it printed to `docs/benchmarks.md` ([`bench_record`]), with the date
//! and the machine.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::bench_record::{Layout, Record};
use crate::composition;
use crate::dist;
use crate::error::Error;
use crate::loading_line;
use crate::process::{self, say};
use crate::serve_dir;
use crate::tools;
use crate::workspace::Workspace;

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    let writing = args.iter().any(|arg| arg == "--write");
    let bench_args: Vec<String> = args
        .iter()
        .filter(|arg| *arg != "--write")
        .cloned()
        .collect();
    let mut record = Record::new(writing);
    simulation(workspace, &bench_args, &mut record)?;
    eprintln!();
    crate::bench_search::native(workspace, &mut record)?;
    eprintln!();
    app(workspace, &mut record)?;
    record.finish(workspace)
}

/// `cargo bench -p lockstep-sim`, with `args` appended.
fn simulation(workspace: &Workspace, args: &[String], record: &mut Record) -> Result<(), Error> {
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
    record.run(
        "The simulator natively",
        Layout::Markdown,
        workspace
            .cargo()
            .args(["bench", "-p", "lockstep-sim"])
            .args(args),
    )
}

/// The release site and its size report (`cargo xtask dist`, which runs the same build as the
/// `build` step of `cargo xtask test`), then the browser benchmark against it, with the
/// environment that the `browser` step of `cargo xtask test` gives the browser tests.
fn app(workspace: &Workspace, record: &mut Record) -> Result<(), Error> {
    say("the app: a release build and its size, then its latency in headless Chromium");
    record.print(
        "The bundle (`cargo xtask dist`)",
        Layout::Aligned,
        dist::size_report(workspace)?,
    );
    record.print(
        "What the wasm is made of",
        Layout::Markdown,
        composition::report(workspace)?,
    );
    tools::ensure_chromium(workspace)?;
    tools::ensure_e2e_harness(workspace)?;
    say("building the native CLI, which checks the benchmark's run against the page's");
    process::run(workspace.cargo().args(["build", "-p", "lockstep-cli"]))?;
    let cli = workspace
        .target_dir()
        .join("debug")
        .join(format!("lockstep-cli{}", std::env::consts::EXE_SUFFIX));
    let with_exports = bench_exports_site(workspace)?;
    for (script, what, site) in BROWSER_BENCHMARKS {
        let dist = match site {
            Site::Shipped => workspace.join("dist"),
            Site::WithBenchExports => with_exports.clone(),
        };
        let mut command = browser_benchmark(workspace, script, what, &dist);
        command
            .env("LOCKSTEP_CLI", &cli)
            .env(serve_dir::PROGRAM_ENV, serve_dir::program()?);
        record.run(&capitalised(what), Layout::Markdown, &mut command)?;
    }
    Ok(())
}

/// Which build of the site a script runs against.
#[derive(Clone, Copy)]
enum Site {
    /// `dist/`: what ships.
    Shipped,
    /// The copy with the app's `bench-exports` feature ([`bench_exports_site`]).
    WithBenchExports,
}

/// The scripts in `e2e/`, in the order they run, each with what it measures and its site.
const BROWSER_BENCHMARKS: [(&str, &str, Site); 5] = [
    (
        "bench-step-latency.mjs",
        "the app's step latency",
        Site::Shipped,
    ),
    (
        "bench-wasm-speed.mjs",
        "the simulator in the page against native",
        Site::WithBenchExports,
    ),
    ("bench-lab.mjs", "the chaos lab in the page", Site::Shipped),
    (
        "bench-search.mjs",
        "the counterexample search in the page beside native and Stateright",
        Site::Shipped,
    ),
    (
        "bench-load.mjs",
        "the first load on a throttled link, embeds, and features opened later",
        Site::Shipped,
    ),
];

/// The app's feature that compiles the benchmark's wasm exports in (`speed.rs`).
const BENCH_EXPORTS: &str = "bench-exports";

/// The release site built again with the app's [`BENCH_EXPORTS`] feature, into its own folder in
/// Cargo's target directory: `dist/` stays what ships. Built after the size report and the
/// composition, which read Cargo's copy of the page's wasm that this build replaces.
fn bench_exports_site(workspace: &Workspace) -> Result<PathBuf, Error> {
    let dist = workspace.target_dir().join("dist-bench-exports");
    say(format!(
        "building the site again with the benchmark's wasm exports (--features {BENCH_EXPORTS}) \
         into {}",
        dist.display()
    ));
    // Trunk gives `--features` only to the binaries whose link names no features of its own;
    // the story binary's says `data-cargo-no-default-features`, so it is told by its link, in
    // a copy of the page beside it (relative paths hold) that this build alone reads.
    let page = workspace.app_dir().join("index.html");
    let copy = workspace.app_dir().join(BENCH_PAGE);
    let html =
        fs::read_to_string(&page).map_err(Error::io(format!("reading {}", page.display())))?;
    let story = r#"data-bin="lockstep" data-cargo-no-default-features"#;
    if !html.contains(story) {
        return Err(Error::Config(format!(
            "{} has no story binary's link ({story}) to give the benchmark's exports to",
            page.display()
        )));
    }
    let with_exports = html.replace(
        story,
        &format!(r#"{story} data-cargo-features="{BENCH_EXPORTS}""#),
    );
    fs::write(&copy, with_exports).map_err(Error::io(format!("writing {}", copy.display())))?;
    let built = process::run(
        workspace
            .trunk()
            .args(["build", "--release", "--public-url", "./"])
            .args(["--features", BENCH_EXPORTS, "--dist"])
            .arg(&dist)
            .arg(BENCH_PAGE)
            .stdout(io::stderr()),
    );
    let _ = fs::remove_file(&copy);
    built?;
    loading_line::stamp(&dist)?;
    Ok(dist)
}

/// The copy of the page the benchmark's site is built from ([`bench_exports_site`]).
const BENCH_PAGE: &str = "index.bench-exports.html";

/// `what`, as a title.
fn capitalised(what: &str) -> String {
    let mut chars = what.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// `node <script>` in `e2e/`, against the release site in `dist` and the machine's Chromium,
/// announced with what it measures.
fn browser_benchmark(workspace: &Workspace, script: &str, what: &str, dist: &Path) -> Command {
    say(format!("measuring {what} (node {script} in e2e/)"));
    let mut command = workspace.command("node");
    command
        .arg(script)
        .current_dir(workspace.join("e2e"))
        .env("LOCKSTEP_DIST", dist)
        .env("LOCKSTEP_CHROMIUM", tools::CHROMIUM);
    command
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_capitalised() {
        assert_eq!(
            capitalised("the chaos lab in the page"),
            "The chaos lab in the page"
        );
        assert_eq!(capitalised(""), "");
    }
}
