//! `cargo xtask test`: every check CI runs (`.ci/run` calls exactly this), in order, stopping at
//! the first failure: formatting, the documented test hooks ([`test_hooks`]), the documents'
//! budgets ([`doc_budget`]), clippy, no import cycle ([`cycles`]), no browser crate under the
//! pure crates ([`absences`]), no function over a screen ([`fn_length`]), the native tests (a
//! plain `cargo test`: no server, no root), the reality check against real servers (a step of
//! its own), a release build of the app through Trunk, the book beside it (and the check that a
//! broken ```` ```lockstep ```` block fails the book's build), and browser tests of that build in
//! headless Chromium, which also compare the page's trace with the native CLI's. It installs
//! whatever is missing first (see [`tools`]). `--from STEP` skips the steps before STEP.

use std::time::{Duration, Instant};

use strum::VariantArray;

use crate::absences;
use crate::book;
use crate::cycles;
use crate::dist;
use crate::doc_budget;
use crate::error::Error;
use crate::fn_length;
use crate::process::{self, human, say};
use crate::serve_dir;
use crate::test_hooks;
use crate::tools;
use crate::workspace::Workspace;

/// The steps, in the order they run (the declaration order).
#[derive(Clone, Copy, PartialEq, VariantArray)]
enum Step {
    Fmt,
    Hooks,
    Docs,
    Clippy,
    Cycles,
    Absences,
    Length,
    Test,
    Real,
    Build,
    Book,
    Browser,
}

impl Step {
    fn name(self) -> &'static str {
        match self {
            Step::Fmt => "fmt",
            Step::Hooks => "hooks",
            Step::Docs => "docs",
            Step::Clippy => "clippy",
            Step::Cycles => "cycles",
            Step::Absences => "absences",
            Step::Length => "length",
            Step::Test => "test",
            Step::Real => "real",
            Step::Build => "build",
            Step::Book => "book",
            Step::Browser => "browser",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Step::Fmt => "formatting (cargo fmt --all --check)",
            Step::Hooks => "every data-testid in the code is in docs/test-hooks.md",
            Step::Docs => {
                "README.md within 200 lines (the two commands first), ARCHITECTURE.md within 250"
            }
            Step::Clippy => {
                "lints (cargo clippy --workspace --all-targets; the story binary without `full`; \
                 the app with `ssr`; \
                 the CLI with `real`; -D warnings)"
            }
            Step::Cycles => {
                "no import cycle between files, paths in bodies included (cargo xtask cycles)"
            }
            Step::Absences => "no browser crate under lockstep-sim or lockstep-view (cargo tree)",
            Step::Length => "no function over 80 lines of code (cargo xtask length)",
            Step::Test => {
                "native tests (cargo test: every default member; no server, no root; and the \
                 build's render, the app with `ssr`)"
            }
            Step::Real => {
                "the reality check against real PostgreSQL, Redis and etcd on loopback \
                 (cargo test -p lockstep-real, and the CLI with `--features real`)"
            }
            Step::Build => {
                "release build of the app (trunk build --release), the book into dist/book/ \
                 (mdbook build), every page and embed rendered (lockstep-render)"
            }
            Step::Book => {
                "a broken ```lockstep block must fail the book's build naming file and line"
            }
            Step::Browser => "browser tests (headless Chromium, against dist/)",
        }
    }

    /// What to do after this step fails, besides rerunning it.
    fn hint(self) -> Option<&'static str> {
        match self {
            Step::Fmt => Some("`cargo fmt --all` fixes the formatting"),
            Step::Hooks => Some("document each hook named above in docs/test-hooks.md"),
            Step::Docs => {
                Some("move detail to docs/ and link it; generated tables belong in docs/ already")
            }
            Step::Cycles => Some(
                "move what both files of a cycle need into a module of its own; keep inherent \
                 impls beside their types",
            ),
            Step::Length => Some(
                "split each function named above along what it does: a sub-component, a hook, \
                 a helper per case",
            ),
            Step::Browser => {
                Some("the page's screenshot, if one was taken, is e2e/artifacts/app.png")
            }
            Step::Clippy | Step::Absences | Step::Test | Step::Real => None,
            Step::Build | Step::Book => None,
        }
    }

    fn run(self, workspace: &Workspace) -> Result<(), Error> {
        match self {
            Step::Fmt => process::run(workspace.cargo().args(["fmt", "--all", "--check"])),
            Step::Hooks => test_hooks::check(workspace),
            Step::Docs => doc_budget::check(workspace),
            Step::Cycles => cycles::check(workspace),
            Step::Absences => absences::check(workspace),
            Step::Length => fn_length::check(workspace),
            Step::Clippy => clippy(workspace),
            Step::Test => native_tests(workspace),
            Step::Real => reality_check(workspace),
            Step::Build => dist::build(workspace),
            // The book itself is built with the site (`dist::build`), which renders its embeds.
            Step::Book => book::check_broken_block_fails(workspace),
            Step::Browser => browser_tests(workspace),
        }
    }
}

/// Clippy over the workspace, then over the two builds `--workspace` does not make: the story
/// binary without the app's `full` feature (decision 33), and the CLI with the reality check.
fn clippy(workspace: &Workspace) -> Result<(), Error> {
    process::run(workspace.cargo().args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    // The story binary (decision 33) compiles the app without its `full` feature.
    process::run(workspace.cargo().args([
        "clippy",
        "-p",
        "lockstep-app",
        "--no-default-features",
        "--lib",
        "--bin",
        "lockstep",
        "--bin",
        "lockstep-embed",
        "--",
        "-D",
        "warnings",
    ]))?;
    // The build's render (decision 43): the app natively, with every page's files compiled in.
    process::run(workspace.cargo().args([
        "clippy",
        "-p",
        "lockstep-app",
        "--all-targets",
        "--features",
        "ssr",
        "--",
        "-D",
        "warnings",
    ]))?;
    process::run(workspace.cargo().args([
        "clippy",
        "-p",
        "lockstep-cli",
        "--all-targets",
        "--features",
        "real",
        "--",
        "-D",
        "warnings",
    ]))
}

/// `cargo test` over the default members, then the build's render (decision 43): every page
/// rendered natively by the app's components, checked for what it must show.
fn native_tests(workspace: &Workspace) -> Result<(), Error> {
    process::run(workspace.cargo().arg("test"))?;
    say("the build's render (cargo test -p lockstep-app --features ssr)");
    process::run(
        workspace
            .cargo()
            .args(["test", "-p", "lockstep-app", "--features", "ssr"]),
    )
}

/// The reality check's tests, which start Debian's PostgreSQL, Redis and etcd on loopback and
/// stop them after: `lockstep-real` (not a default member, so a plain `cargo test` never starts
/// a server), and the CLI built with its `real` command.
fn reality_check(workspace: &Workspace) -> Result<(), Error> {
    say("the reality check's own tests (cargo test -p lockstep-real)");
    process::run(workspace.cargo().args(["test", "-p", "lockstep-real"]))?;
    say("the CLI with its `real` command (cargo test -p lockstep-cli --features real)");
    process::run(
        workspace
            .cargo()
            .args(["test", "-p", "lockstep-cli", "--features", "real"]),
    )
}

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    let first = match args {
        [] => Step::Fmt,
        [flag, name] if flag == "--from" => Step::VARIANTS
            .iter()
            .copied()
            .find(|step| step.name() == name)
            .ok_or_else(|| Error::Usage(format!("unknown step `{name}`; {}", step_list())))?,
        _ => {
            return Err(Error::Usage(format!(
                "usage: cargo xtask test [--from STEP]; {}",
                step_list()
            )));
        }
    };
    let steps: Vec<Step> = Step::VARIANTS
        .iter()
        .copied()
        .skip_while(|step| *step != first)
        .collect();

    let started = Instant::now();
    say("checking tools");
    tools::ensure_all(workspace)?;
    let tools_time = started.elapsed();

    let mut done: Vec<(Step, Duration)> = Vec::new();
    for (index, &step) in steps.iter().enumerate() {
        eprintln!();
        say(format!(
            "step {}/{} `{}`: {}",
            index + 1,
            steps.len(),
            step.name(),
            step.title()
        ));
        let step_start = Instant::now();
        let result = step.run(workspace);
        let took = step_start.elapsed();
        if let Err(err) = result {
            eprintln!("error: {err}");
            summary(tools_time, &done, Some((step, took)), steps.len());
            return Err(Error::StepFailed {
                step: step.name(),
                title: step.title(),
                hint: step.hint(),
            });
        }
        say(format!("step `{}` passed in {}", step.name(), human(took)));
        done.push((step, took));
    }
    summary(tools_time, &done, None, steps.len());
    say(format!("all done in {}", human(started.elapsed())));
    Ok(())
}

fn step_list() -> String {
    let names: Vec<&str> = Step::VARIANTS.iter().map(|step| step.name()).collect();
    format!("steps, in order: {}", names.join(", "))
}

/// The closing table, on stdout, ending with a line `steps: N passed, N failed, N skipped`.
fn summary(
    tools_time: Duration,
    passed: &[(Step, Duration)],
    failed: Option<(Step, Duration)>,
    planned: usize,
) {
    println!();
    println!("summary of cargo xtask test:");
    println!("  {:<10} {:<8} {}", "tools", "ready", human(tools_time));
    for (step, took) in passed {
        println!("  {:<10} {:<8} {}", step.name(), "passed", human(*took));
    }
    if let Some((step, took)) = failed {
        println!("  {:<10} {:<8} {}", step.name(), "FAILED", human(took));
    }
    let failed_count = usize::from(failed.is_some());
    let skipped = planned - passed.len() - failed_count;
    let skipped_text = if skipped > 0 {
        format!(", {skipped} skipped")
    } else {
        String::new()
    };
    println!(
        "steps: {} passed, {failed_count} failed{skipped_text}",
        passed.len()
    );
}

/// Builds the native CLI (the browser tests compare the page with its trace) and the book's
/// preprocessor (the pasted-snippets test builds a book with it), then runs the harness in
/// `e2e/` with Node's test runner against the site in `dist/`.
fn browser_tests(workspace: &Workspace) -> Result<(), Error> {
    let dist = workspace.join("dist");
    dist::require_release_build(workspace)?;
    say("building the native CLI, whose trace the page must match, and mdbook-lockstep");
    process::run(
        workspace
            .cargo()
            .args(["build", "-p", "lockstep-cli", "-p", "mdbook-lockstep"]),
    )?;
    let binaries = workspace.target_dir().join("debug");
    let cli = binaries.join(format!("lockstep-cli{}", std::env::consts::EXE_SUFFIX));
    say("running the browser tests (node --test in e2e/)");
    process::run(
        workspace
            .command("node")
            .args(["--test", "--test-reporter=spec"])
            .current_dir(workspace.join("e2e"))
            .env("LOCKSTEP_CLI", &cli)
            .env("LOCKSTEP_PREPROCESSOR_DIR", &binaries)
            .env("LOCKSTEP_DIST", &dist)
            .env("LOCKSTEP_CHROMIUM", tools::CHROMIUM)
            .env(serve_dir::PROGRAM_ENV, serve_dir::program()?),
    )
}
