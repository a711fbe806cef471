//! `cargo xtask real [--runs N] [--record] [--all] [--only ID]… [--write]`: the reality check's
//! conformance suite (`--all`: with its long cases; `--only`: those cases alone). Installs Debian's PostgreSQL, Redis and etcd if they are
//! missing, then runs `lockstep-real`, which starts them on loopback (the Redis pairs, Redlock's
//! nodes and etcd clusters per run), runs each case N times against them, prints the table
//! (scenario, service, runs, matches, time) and stops them, leaving nothing running. `--record`
//! writes each case's first matching run into the site's content (`content/recorded/`), with
//! the servers' versions and the day; `--write` writes the printed table to [`FILE`], so the
//! published figures are the printed text, never pasted by hand.

use std::fs;

use crate::bench_record;
use crate::error::Error;
use crate::process::{self, say};
use crate::tools;
use crate::workspace::Workspace;

/// Where `--write` puts the table, relative to the repository root.
const FILE: &str = "docs/reality-check-runs.md";

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    tools::ensure_real_services(workspace)?;
    let writing = args.iter().any(|arg| arg == "--write");
    // The written table stands for the whole suite: a table of a few cases must not replace it.
    if writing && args.iter().any(|arg| arg == "--only") {
        return Err(Error::Usage(format!(
            "--write writes the whole suite's table to {FILE}: it cannot be given with --only"
        )));
    }
    let mut passed = Vec::new();
    for arg in args.iter().filter(|arg| *arg != "--write") {
        passed.push(arg.clone());
        if arg == "--record" {
            passed.push(workspace.join("content/recorded").display().to_string());
        }
    }
    say("running the conformance suite against real services (crates/lockstep-real)");
    let mut command = workspace.cargo();
    command
        .args([
            "run",
            "--quiet",
            "-p",
            "lockstep-real",
            "--bin",
            "lockstep-real",
            "--",
        ])
        .args(&passed);
    if !writing {
        return process::run(&mut command);
    }
    let table = process::run_capturing(&mut command)?;
    let path = workspace.join(FILE);
    let text = render(
        &bench_record::today(),
        &bench_record::machine(workspace)?,
        &passed.join(" "),
        &table,
    );
    fs::write(&path, text).map_err(Error::io(format!("writing {}", path.display())))?;
    say(format!("wrote {}", path.display()));
    Ok(())
}

/// The whole file: a heading, how and when it was made, then the table as printed.
fn render(date: &str, machine: &str, args: &str, table: &str) -> String {
    format!(
        "# The reality check's runs\n\n\
         Written by `cargo xtask real --write {args}` on {date}, on {machine}: the table it \
         printed. Do not edit by hand; rerun it. Each case is a catalogue scenario played by real \
         clients against real servers on loopback, its recorded history judged as the simulated \
         trace is, and matched when both outcome classes are equal. What differs between model \
         and reality, and why: [reality-check.md](reality-check.md).\n\n{}\n",
        table.trim_end()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_file_says_how_it_was_made_and_keeps_the_table_as_printed() {
        let table = "| scenario | runs |\n|---|---:|\n| s2 | 5 |\n";
        let text = render("2026-12-07", "2 cores", "--all --runs 5", table);
        assert!(
            text.contains("`cargo xtask real --write --all --runs 5` on 2026-12-07, on 2 cores")
        );
        assert!(text.ends_with("| s2 | 5 |\n"));
    }
}
