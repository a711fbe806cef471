//! `cargo xtask shots`: the screenshots a reviewer looks at before a change to the look lands.
//!
//! Builds the release site into `dist/` as `cargo xtask test` does (unless `--no-build` reuses
//! the one there), builds the native CLI, then runs `e2e/shots.mjs` against the site in headless
//! Chromium (installed first, as for the browser tests; see [`tools`]). The script renders every
//! built-in scenario's opening view and the moment it first goes wrong, at 1280×800 and on a
//! 375×700 touch screen, then the guided pages, into `e2e/artifacts/shots/` with a contact
//! sheet, `index.html`. It fails when a page reports a problem, a shot is blank, or a moment the
//! page finds differs from the native CLI's trace. It judges nothing else: people look.

use std::fs;

use crate::dist;
use crate::error::Error;
use crate::process::{self, say};
use crate::serve_dir;
use crate::tools;
use crate::workspace::Workspace;

/// Whether to build the site first.
#[derive(Clone, Copy, PartialEq)]
enum Site {
    Build,
    Reuse,
}

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    let site = match args {
        [] => Site::Build,
        [flag] if flag == "--no-build" => Site::Reuse,
        _ => {
            return Err(Error::Usage(format!(
                "usage: cargo xtask shots [--no-build] (got: {})",
                args.join(" ")
            )));
        }
    };
    if site == Site::Build {
        tools::ensure_web(workspace)?;
        dist::build(workspace)?;
    }
    dist::require_release_build(workspace)?;
    tools::ensure_chromium(workspace)?;
    tools::ensure_e2e_harness(workspace)?;
    say("building the native CLI, whose traces the shots' moments must match");
    process::run(workspace.cargo().args(["build", "-p", "lockstep-cli"]))?;
    let cli = workspace
        .target_dir()
        .join("debug")
        .join(format!("lockstep-cli{}", std::env::consts::EXE_SUFFIX));
    let shots = workspace.join("e2e/artifacts/shots");
    say(format!(
        "taking the screenshots in headless Chromium (node shots.mjs in e2e/) into {}",
        shots.display()
    ));
    process::run(
        workspace
            .command("node")
            .arg("shots.mjs")
            .current_dir(workspace.join("e2e"))
            .env("LOCKSTEP_CLI", &cli)
            .env("LOCKSTEP_DIST", workspace.join("dist"))
            .env("LOCKSTEP_CHROMIUM", tools::CHROMIUM)
            .env(serve_dir::PROGRAM_ENV, serve_dir::program()?),
    )?;
    let sheet = shots.join("index.html");
    fs::metadata(&sheet).map_err(Error::io(format!("reading {}", sheet.display())))?;
    say(format!("look at them: {}", sheet.display()));
    Ok(())
}
