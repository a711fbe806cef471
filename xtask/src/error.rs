//! The one error type of xtask: every failure a user can meet, each with a message that says
//! what went wrong and, where there is one, what to do about it.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::process::ExitStatus;

#[derive(Debug)]
pub enum Error {
    /// The command line could not be understood.
    Usage(String),
    /// A file or directory could not be read or written.
    Io { action: String, source: io::Error },
    /// A program could not be started at all.
    Spawn { command: String, source: io::Error },
    /// A program ran and exited unsuccessfully (its own output says why).
    Failed { command: String, status: ExitStatus },
    /// The project's own files disagree or are missing something (Cargo.lock, Trunk.toml, ...).
    Config(String),
    /// An install finished, but the tool is still missing or at the wrong version.
    InstallDidNotTake { tool: String, found: String },
    /// A step of `cargo xtask test` failed; `hint` says what else may help.
    StepFailed {
        step: &'static str,
        title: &'static str,
        hint: Option<&'static str>,
    },
    /// A check that xtask makes itself found what it checks for missing.
    Check(String),
    /// `cargo xtask bench` found no benchmark to run.
    NoBench { crate_dir: PathBuf },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(message) => write!(f, "{message}"),
            Error::Io { action, source } => write!(f, "{action}: {source}"),
            Error::Spawn { command, source } if source.kind() == io::ErrorKind::NotFound => {
                write!(
                    f,
                    "could not run `{command}`: program not found (is it installed?)"
                )
            }
            Error::Spawn { command, source } => write!(f, "could not run `{command}`: {source}"),
            Error::Failed { command, status } => write!(f, "`{command}` failed ({status})"),
            Error::Config(message) => write!(f, "{message}"),
            Error::InstallDidNotTake { tool, found } => {
                write!(f, "installed {tool}, but a check afterwards found {found}")
            }
            Error::StepFailed { step, title, hint } => {
                write!(
                    f,
                    "step `{step}` failed: {title} (its output is above)\n\
                     rerun from this step with: cargo xtask test --from {step}"
                )?;
                match hint {
                    Some(hint) => write!(f, "\n{hint}"),
                    None => Ok(()),
                }
            }
            Error::Check(message) => write!(f, "{message}"),
            Error::NoBench { crate_dir } => write!(
                f,
                "no benchmark to run yet: {} has neither a benches/ directory nor a [[bench]] \
                 target, so there is nothing to measure",
                crate_dir.display()
            ),
        }
    }
}

impl std::error::Error for Error {}

impl Error {
    /// An [`Error::Io`] that names what was being done, e.g. "reading Cargo.lock".
    pub fn io(action: impl Into<String>) -> impl FnOnce(io::Error) -> Error {
        let action = action.into();
        move |source| Error::Io { action, source }
    }
}
