//! The mechanism every install of `cargo xtask` goes through: check a tool, install it only when
//! the check says it is missing or at another version, say what is happening and how long it
//! took, and check again. Which tools, at which versions, is [`crate::tools`]' business; this
//! module names none.

use std::time::Instant;

use crate::error::Error;
use crate::process::{self, human, say};
use crate::workspace::Workspace;

/// What a check found.
pub enum Found {
    Ready,
    Missing,
    /// Installed, but not as wanted; says what was found.
    Other(String),
}

/// Checks one tool and installs it if the check says so, then checks again.
pub fn ensure(
    label: &str,
    estimate: &str,
    check: impl Fn() -> Result<Found, Error>,
    install: impl FnOnce() -> Result<(), Error>,
) -> Result<(), Error> {
    match check()? {
        Found::Ready => {
            say(format!("{label}: already installed"));
            return Ok(());
        }
        Found::Missing => say(format!("installing {label} ({estimate})")),
        Found::Other(found) => say(format!("installing {label} (found {found}; {estimate})")),
    }
    let start = Instant::now();
    install()?;
    match check()? {
        Found::Ready => {
            say(format!("installed {label} in {}", human(start.elapsed())));
            Ok(())
        }
        Found::Missing => Err(Error::InstallDidNotTake {
            tool: label.to_string(),
            found: "it missing".to_string(),
        }),
        Found::Other(found) => Err(Error::InstallDidNotTake {
            tool: label.to_string(),
            found,
        }),
    }
}

/// Compares a version that a tool reported with the wanted one.
pub fn version_check(reported: Option<String>, wanted: &str) -> Found {
    match reported {
        None => Found::Missing,
        Some(version) if version == wanted => Found::Ready,
        Some(version) => Found::Other(format!("version {version}")),
    }
}

/// The word after `marker` in a tool's output: `trunk 0.21.14` gives `0.21.14` after `trunk`.
pub fn word_after(output: Option<String>, marker: &str) -> Option<String> {
    let output = output?;
    let mut words = output.split_whitespace();
    words.find(|word| *word == marker)?;
    words.next().map(str::to_string)
}

/// Installs Debian's `packages` with apt-get unless `installed` says they are.
pub fn ensure_debian(
    workspace: &Workspace,
    label: &str,
    estimate: &str,
    installed: impl Fn() -> bool,
    packages: &[&str],
) -> Result<(), Error> {
    ensure(
        label,
        estimate,
        || {
            Ok(if installed() {
                Found::Ready
            } else {
                Found::Missing
            })
        },
        || {
            process::run(workspace.command("apt-get").arg("update"))?;
            process::run(
                workspace
                    .command("apt-get")
                    .args(["install", "-y"])
                    .args(packages)
                    .env("DEBIAN_FRONTEND", "noninteractive"),
            )
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_versions_from_tool_output() {
        let out = |s: &str| Some(s.to_string());
        assert_eq!(
            word_after(out("trunk 0.21.14"), "trunk").as_deref(),
            Some("0.21.14")
        );
        assert_eq!(
            word_after(out("wasm-opt version 132 (version_132)"), "version").as_deref(),
            Some("132")
        );
        assert_eq!(word_after(out("trunk"), "trunk"), None);
        assert_eq!(word_after(None, "trunk"), None);
    }

    #[test]
    fn version_check_tells_missing_from_other() {
        assert!(matches!(version_check(None, "1"), Found::Missing));
        assert!(matches!(
            version_check(Some("1".to_string()), "1"),
            Found::Ready
        ));
        assert!(matches!(
            version_check(Some("2".to_string()), "1"),
            Found::Other(found) if found == "version 2"
        ));
    }
}
