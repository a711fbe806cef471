//! Reading a TOML file of the project (Cargo.lock, Trunk.toml, a crate's manifest) with the
//! `toml` crate, into only the fields the caller declares.

use std::fs;
use std::path::Path;

use serde::Deserialize;

use crate::error::Error;

/// A TOML file read into `T`; an unreadable or malformed file is named with the reason.
pub fn read_toml<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, Error> {
    let text =
        fs::read_to_string(path).map_err(Error::io(format!("reading {}", path.display())))?;
    toml::from_str(&text).map_err(|e| Error::Config(format!("{}: {e}", path.display())))
}
