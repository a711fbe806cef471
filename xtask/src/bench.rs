//! `cargo xtask bench`: the simulation's native benchmarks, `cargo bench -p lockstep-sim` (the
//! workspace's `bench` profile tunes them for speed, where release builds are tuned for size).
//! Extra arguments go to cargo bench. Says so, and fails, when the crate has no benchmark yet.

use std::fs;

use crate::error::Error;
use crate::process::{self, say};
use crate::workspace::Workspace;

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
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
