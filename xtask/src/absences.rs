//! The check that the crates which must never reach the browser do not: `lockstep-sim` (the
//! simulator) and `lockstep-view` (the page's pure half). Run as a step of `cargo xtask test`
//! and as `cargo xtask absences`.
//!
//! It asks Cargo for each crate's tree of normal dependencies (`cargo tree -e normal`, which
//! leaves out dev-dependencies, so tests may use what they like) and fails naming any package
//! of the browser's: Yew, web-sys, js-sys, gloo and wasm-bindgen, under any of their names. It
//! must not judge anything else about a dependency.

use std::collections::BTreeSet;

use crate::error::Error;
use crate::process::{describe, say};
use crate::workspace::Workspace;

/// The crates that must stay browser-free.
const PURE: [&str; 2] = ["lockstep-sim", "lockstep-view"];

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    if !args.is_empty() {
        return Err(Error::Usage("usage: cargo xtask absences".to_string()));
    }
    check(workspace)
}

/// Fails, naming the crate and the packages, when a pure crate depends on the browser's.
pub fn check(workspace: &Workspace) -> Result<(), Error> {
    let mut found = Vec::new();
    for package in PURE {
        let mut command = workspace.cargo();
        command.args([
            "tree",
            "--package",
            package,
            "--edges",
            "normal",
            "--prefix",
            "none",
            "--format",
            "{p}",
        ]);
        let output = command.output().map_err(|source| Error::Spawn {
            command: describe(&command),
            source,
        })?;
        if !output.status.success() {
            return Err(Error::Failed {
                command: describe(&command),
                status: output.status,
            });
        }
        let browsers = browser_packages(&String::from_utf8_lossy(&output.stdout));
        if !browsers.is_empty() {
            found.push(format!(
                "{package} depends on {}",
                browsers.into_iter().collect::<Vec<_>>().join(", ")
            ));
        }
    }
    if found.is_empty() {
        say(format!("no browser crate under {}", PURE.join(" or ")));
        return Ok(());
    }
    Err(Error::Check(format!(
        "a crate that must not reach the browser does (take the dependency out, or move the \
         code that needs it into lockstep-app):\n  {}",
        found.join("\n  ")
    )))
}

/// The browser's packages named in `cargo tree`'s lines (`name v1.2.3 …`).
fn browser_packages(tree: &str) -> BTreeSet<String> {
    tree.lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| is_browser(name))
        .map(str::to_owned)
        .collect()
}

fn is_browser(name: &str) -> bool {
    matches!(name, "yew" | "web-sys" | "js-sys")
        || name.starts_with("yew-")
        || name.starts_with("gloo")
        || name.starts_with("wasm-bindgen")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_browser_crates_are_named_and_the_rest_are_not() {
        let tree = "lockstep-view v0.1.0 (/w/crates/lockstep-view)\nserde v1.0.0\n\
                    gloo-timers v0.3.0\nwasm-bindgen-futures v0.4.0\nyew v0.23.0\n\
                    js-sys v0.3.0\nweb-sys v0.3.0\nbase64 v0.22.0\nsyn v2.0.0\n";
        let named: Vec<String> = browser_packages(tree).into_iter().collect();
        assert_eq!(
            named,
            [
                "gloo-timers",
                "js-sys",
                "wasm-bindgen-futures",
                "web-sys",
                "yew"
            ]
        );
    }
}
