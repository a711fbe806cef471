//! Where things are: the repository root, the target directory, and the environment that every
//! child process gets.
//!
//! Every child runs from the repository root with the project's pinned tools first on `PATH`:
//! `tools/node_modules/.bin` (wasm-opt from the npm package binaryen), then cargo's bin directory
//! (Trunk and wasm-bindgen, as `cargo install` puts them there). So what xtask installs is what
//! Trunk finds, whatever else the machine has (Debian's binaryen is too old to read our wasm).

use std::env;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::error::Error;

/// Where the app's crate lives, relative to the repository root.
pub const APP_DIR: &str = "crates/lockstep-app";
/// Trunk's configuration, from the repository root: where the app's build is declared.
pub const TRUNK_TOML: &str = "crates/lockstep-app/Trunk.toml";

/// The Cargo profile of the page's wasm (index.html's `data-cargo-profile`): the release
/// profile tuned for size, while `release` itself is tuned for the CLI's speed.
pub const WASM_PROFILE: &str = "wasm-release";

pub struct Workspace {
    root: PathBuf,
    /// `PATH` for child processes: the project's tool directories, then the inherited `PATH`.
    path: OsString,
}

impl Workspace {
    /// The workspace this xtask was built from (xtask lives in `<root>/xtask`).
    pub fn locate() -> Result<Self, Error> {
        let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = manifest_dir
            .parent()
            .ok_or_else(|| {
                Error::Config(format!(
                    "xtask's directory {} has no parent directory",
                    manifest_dir.display()
                ))
            })?
            .to_path_buf();
        let mut dirs = vec![root.join("tools").join("node_modules").join(".bin")];
        dirs.extend(cargo_bin_dir());
        dirs.extend(env::var_os("PATH").iter().flat_map(env::split_paths));
        let path = env::join_paths(dirs).map_err(|err| {
            Error::Config(format!("cannot build PATH for child processes: {err}"))
        })?;
        Ok(Workspace { root, path })
    }

    /// The app's crate: its `index.html`, `Trunk.toml`, `assets/` and `styles/`.
    pub fn app_dir(&self) -> PathBuf {
        self.join(APP_DIR)
    }

    /// Trunk, run from the app's crate so that it reads the app's `Trunk.toml`.
    pub fn trunk(&self) -> Command {
        let mut command = self.command("trunk");
        command.current_dir(self.app_dir());
        command
    }

    /// A path inside the repository, from a `/`-separated relative path.
    pub fn join(&self, relative: &str) -> PathBuf {
        relative
            .split('/')
            .fold(self.root.clone(), |path, part| path.join(part))
    }

    /// Cargo's target directory (`CARGO_TARGET_DIR` if set, else `<root>/target`).
    pub fn target_dir(&self) -> PathBuf {
        match env::var_os("CARGO_TARGET_DIR") {
            Some(dir) => self.root.join(dir),
            None => self.root.join("target"),
        }
    }

    /// Where Cargo leaves the page's wasm `name` (before wasm-bindgen and wasm-opt).
    pub fn page_wasm(&self, name: &str) -> PathBuf {
        self.target_dir()
            .join("wasm32-unknown-unknown")
            .join(WASM_PROFILE)
            .join(format!("{name}.wasm"))
    }

    /// A command that runs from the repository root with the project's `PATH` and no stdin
    /// (CI has none, and nothing here should wait for an answer).
    pub fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let mut command = Command::new(program);
        command
            .current_dir(&self.root)
            .env("PATH", &self.path)
            .stdin(Stdio::null());
        command
    }

    /// `cargo`, from `PATH`: under rustup, its proxy picks the toolchain that runs xtask.
    pub fn cargo(&self) -> Command {
        self.command("cargo")
    }
}

/// Where `cargo install` puts binaries: `$CARGO_HOME/bin`, by default `~/.cargo/bin`.
fn cargo_bin_dir() -> Option<PathBuf> {
    let home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")))?;
    Some(home.join("bin"))
}
