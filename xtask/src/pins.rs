//! The tool versions that the project's own files pin, read so that xtask installs exactly those:
//! wasm-bindgen from `Cargo.lock` (the CLI must equal the library the app links), and wasm-opt
//! from `Trunk.toml`'s `[tools]` (Trunk refuses any other). Both files are hand-parsed: they are
//! simple, line-oriented TOML, and a full TOML parser would be the heaviest thing in xtask.

use std::fs;

use crate::error::Error;
use crate::workspace::Workspace;

pub struct Pins {
    /// The `wasm-bindgen` version in `Cargo.lock`, e.g. `0.2.130`.
    pub wasm_bindgen: String,
    /// The binaryen release that `Trunk.toml` asks for, e.g. `132` (from `version_132`).
    pub binaryen: String,
}

impl Pins {
    pub fn read(workspace: &Workspace) -> Result<Self, Error> {
        let lock_path = workspace.join("Cargo.lock");
        let lock = fs::read_to_string(&lock_path)
            .map_err(Error::io(format!("reading {}", lock_path.display())))?;
        let wasm_bindgen = match package_versions(&lock, "wasm-bindgen").as_slice() {
            [version] => version.clone(),
            [] => {
                return Err(Error::Config(
                    "Cargo.lock has no `wasm-bindgen` package, so there is no version for the \
                     wasm-bindgen CLI to match"
                        .to_string(),
                ));
            }
            several => {
                return Err(Error::Config(format!(
                    "Cargo.lock has several `wasm-bindgen` versions ({}); the app must link \
                     exactly one, the one the wasm-bindgen CLI is installed at",
                    several.join(", ")
                )));
            }
        };

        let trunk_path = workspace.app_dir().join("Trunk.toml");
        let trunk = fs::read_to_string(&trunk_path)
            .map_err(Error::io(format!("reading {}", trunk_path.display())))?;
        if let Some(pinned) = toml_string(&trunk, "tools", "wasm_bindgen")
            && pinned != wasm_bindgen
        {
            return Err(Error::Config(format!(
                "Trunk.toml pins wasm_bindgen = \"{pinned}\" but Cargo.lock has wasm-bindgen \
                 {wasm_bindgen}: make them equal"
            )));
        }
        let wasm_opt = toml_string(&trunk, "tools", "wasm_opt").ok_or_else(|| {
            Error::Config(
                "Trunk.toml has no `wasm_opt` in [tools]; pin the binaryen release of \
                 tools/package.json there, e.g. wasm_opt = \"version_132\""
                    .to_string(),
            )
        })?;
        let binaryen = wasm_opt
            .strip_prefix("version_")
            .ok_or_else(|| {
                Error::Config(format!(
                    "Trunk.toml pins wasm_opt = \"{wasm_opt}\"; expected the form \"version_N\""
                ))
            })?
            .to_string();
        Ok(Pins {
            wasm_bindgen,
            binaryen,
        })
    }
}

/// Every version of package `name` in a `Cargo.lock`.
fn package_versions(lock: &str, name: &str) -> Vec<String> {
    let mut versions = Vec::new();
    let mut in_package = false;
    for line in lock.lines().map(str::trim) {
        if line.starts_with('[') {
            in_package = false;
        } else if let Some(value) = string_value(line, "name") {
            in_package = value == name;
        } else if in_package && let Some(value) = string_value(line, "version") {
            versions.push(value.to_string());
        }
    }
    versions
}

/// The string value of `key` in `[section]` of a simple TOML file.
fn toml_string(toml: &str, section: &str, key: &str) -> Option<String> {
    let header = format!("[{section}]");
    let mut in_section = false;
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            in_section = line == header;
        } else if in_section && let Some(value) = string_value(line, key) {
            return Some(value.to_string());
        }
    }
    None
}

/// `value` from a line `key = "value"` (a trailing comment is allowed), else `None`.
fn string_value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(key)?.trim_start().strip_prefix('=')?;
    let quoted = rest.trim_start().strip_prefix('"')?;
    let end = quoted.find('"')?;
    Some(&quoted[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = r#"
version = 4

[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"
dependencies = [
 "wasm-bindgen-macro",
]

[[package]]
name = "wasm-bindgen-macro"
version = "0.2.130"
"#;

    #[test]
    fn finds_only_the_named_package() {
        assert_eq!(package_versions(LOCK, "wasm-bindgen"), ["0.2.130"]);
        assert!(package_versions(LOCK, "yew").is_empty());
    }

    #[test]
    fn reads_a_key_in_its_section_only() {
        let toml = "[build]\nwasm_opt = \"no\"\n\n[tools]\n# comment\nwasm_opt = \"version_132\" # pinned\n";
        assert_eq!(
            toml_string(toml, "tools", "wasm_opt").as_deref(),
            Some("version_132")
        );
        assert_eq!(toml_string(toml, "serve", "wasm_opt"), None);
    }

    #[test]
    fn a_longer_key_is_not_the_key() {
        assert_eq!(string_value("wasm_bindgen_x = \"1\"", "wasm_bindgen"), None);
        assert_eq!(
            string_value("wasm_bindgen= \"1\"", "wasm_bindgen"),
            Some("1")
        );
    }
}
