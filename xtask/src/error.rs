//! The one error type of xtask: every failure a user can meet, each with a message that says
//! what went wrong and, where there is one, what to do about it.

use std::io;
use std::path::PathBuf;
use std::process::ExitStatus;

use thiserror::Error;

#[derive(Debug, Error)]
pub enum Error {
    /// The command line could not be understood.
    #[error("{0}")]
    Usage(String),
    /// A file or directory could not be read or written.
    #[error("{action}: {source}")]
    Io { action: String, source: io::Error },
    /// A program could not be started at all.
    #[error("could not run `{command}`: {}", spawn_reason(source))]
    Spawn { command: String, source: io::Error },
    /// A program ran and exited unsuccessfully (its own output says why).
    #[error("`{command}` failed ({status})")]
    Failed { command: String, status: ExitStatus },
    /// The project's own files disagree or are missing something (Cargo.lock, Trunk.toml, ...).
    #[error("{0}")]
    Config(String),
    /// An install finished, but the tool is still missing or at the wrong version.
    #[error("installed {tool}, but a check afterwards found {found}")]
    InstallDidNotTake { tool: String, found: String },
    /// A step of `cargo xtask test` failed; `hint` says what else may help.
    #[error(
        "step `{step}` failed: {title} (its output is above)\n\
         rerun from this step with: cargo xtask test --from {step}{}",
        hint.map(|hint| format!("\n{hint}")).unwrap_or_default()
    )]
    StepFailed {
        step: &'static str,
        title: &'static str,
        hint: Option<&'static str>,
    },
    /// A check that xtask makes itself found what it checks for missing.
    #[error("{0}")]
    Check(String),
    /// `cargo xtask bench` found no benchmark to run.
    #[error(
        "no benchmark to run yet: {} has neither a benches/ directory nor a [[bench]] target, so \
         there is nothing to measure",
        crate_dir.display()
    )]
    NoBench { crate_dir: PathBuf },
}

/// Why a program could not start: a missing program is said in words, as the likeliest cause.
fn spawn_reason(source: &io::Error) -> String {
    if source.kind() == io::ErrorKind::NotFound {
        "program not found (is it installed?)".to_owned()
    } else {
        source.to_string()
    }
}

impl Error {
    /// An [`Error::Io`] that names what was being done, e.g. "reading Cargo.lock".
    pub fn io(action: impl Into<String>) -> impl FnOnce(io::Error) -> Error {
        let action = action.into();
        move |source| Error::Io { action, source }
    }
}
