//! The workspace's Rust files as the source gates read them (`length`, `cycles`, `hooks`): every
//! `.rs` file under a folder, leaving out build output and installed packages, sorted so that
//! reports come in a stable order. It lists and parses; it judges nothing.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::Error;

/// Folders that hold no source of ours: build output, npm packages, the site, git's own.
const SKIPPED_DIRS: [&str; 4] = ["target", "node_modules", "dist", ".git"];

/// Every `.rs` file under `dir`, sorted.
pub fn under(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut files = Vec::new();
    collect(dir, &mut files)?;
    files.sort();
    Ok(files)
}

fn collect(dir: &Path, into: &mut Vec<PathBuf>) -> Result<(), Error> {
    let entries = fs::read_dir(dir).map_err(Error::io(format!("listing {}", dir.display())))?;
    for entry in entries {
        let entry = entry.map_err(Error::io(format!("listing {}", dir.display())))?;
        let path = entry.path();
        if path.is_dir() {
            if !SKIPPED_DIRS
                .iter()
                .any(|skipped| entry.file_name() == *skipped)
            {
                collect(&path, into)?;
            }
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            into.push(path);
        }
    }
    Ok(())
}

/// One file's text, parsed; the error names the file.
pub fn parse(file: &Path) -> Result<syn::File, Error> {
    let text =
        fs::read_to_string(file).map_err(Error::io(format!("reading {}", file.display())))?;
    parse_text(file, &text)
}

/// `text` (read from `file`), parsed; the error names the file.
pub fn parse_text(file: &Path, text: &str) -> Result<syn::File, Error> {
    syn::parse_file(text)
        .map_err(|err| Error::Check(format!("{}: not valid Rust: {err}", file.display())))
}
