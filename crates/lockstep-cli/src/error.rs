//! Everything `lockstep-cli` can fail with, and its words. `main` maps them to exit codes:
//! failed expectations and broken checks 1, anything else 2.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum CliError {
    /// The arguments do not say a command that can run. `command` is the one they named, whose
    /// usage follows the message.
    #[error("{}{message}", named(command.as_deref()))]
    Usage {
        command: Option<String>,
        message: String,
    },
    #[error("cannot read {path}: {reason}")]
    Read { path: String, reason: String },
    #[error("cannot write {path}: {reason}")]
    Write { path: String, reason: String },
    /// `origin`, not `source`: thiserror would take a field of that name for the cause.
    #[error("{origin}: {reason}")]
    Scenario { origin: String, reason: String },
    #[error("{}", expectation_lines(.0))]
    Expectations(Vec<String>),
    #[error("chaos: {0}")]
    Chaos(lockstep_sim::analysis::chaos::ReportError),
    /// A check that ran and found something broken (`check-trace`'s invariants, `real`'s
    /// match with the simulation): the report, printed on standard output.
    #[error("{0}")]
    Broken(String),
    /// A real server could not be started or answered wrongly.
    #[cfg(feature = "real")]
    #[error("real run: {0}")]
    Real(String),
    /// `real` in a build without the `real` feature: there is nothing to play against.
    #[cfg(not(feature = "real"))]
    #[error(
        "built without the reality check: this lockstep-cli cannot start real servers. \
         Install one that can with `cargo install --path crates/lockstep-cli --features real`, \
         or run the whole reality check with `cargo xtask real` (as root: it installs Debian's \
         PostgreSQL, Redis and etcd)"
    )]
    BuiltWithoutReal,
}

/// The commands of flags only (no scenario) say their name before what is wrong with a flag.
fn named(command: Option<&str>) -> String {
    match command {
        Some(name @ ("chaos" | "matrix" | "hunt")) => format!("{name}: "),
        _ => String::new(),
    }
}

fn expectation_lines(failures: &[String]) -> String {
    let listed: String = failures
        .iter()
        .map(|failure| format!("  ✗ {failure}\n"))
        .collect();
    format!("{} expectation(s) failed:\n{listed}", failures.len())
}
