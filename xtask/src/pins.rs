//! The tool versions that the project's own files pin, read so that xtask installs exactly those:
//! wasm-bindgen from `Cargo.lock` (the CLI must equal the library the app links), and wasm-opt
//! from `Trunk.toml`'s `[tools]` (Trunk refuses any other). Both are read with the `toml` crate,
//! into only the fields used here.

use serde::Deserialize;

use crate::error::Error;
use crate::toml_file::read_toml;
use crate::workspace::{TRUNK_TOML, Workspace};

pub struct Pins {
    /// The `wasm-bindgen` version in `Cargo.lock`, e.g. `0.2.130`.
    pub wasm_bindgen: String,
    /// The binaryen release that `Trunk.toml` asks for, e.g. `132` (from `version_132`).
    pub binaryen: String,
}

/// The part of `Cargo.lock` read here: each package's name and version.
#[derive(Deserialize)]
struct Lock {
    #[serde(default)]
    package: Vec<LockedPackage>,
}

#[derive(Deserialize)]
struct LockedPackage {
    name: String,
    version: String,
}

/// The part of `Trunk.toml` read here: the `[tools]` pins.
#[derive(Deserialize)]
struct Trunk {
    #[serde(default)]
    tools: TrunkTools,
}

#[derive(Deserialize, Default)]
struct TrunkTools {
    wasm_bindgen: Option<String>,
    wasm_opt: Option<String>,
}

impl Pins {
    pub fn read(workspace: &Workspace) -> Result<Self, Error> {
        let lock: Lock = read_toml(&workspace.join("Cargo.lock"))?;
        let wasm_bindgen = the_one_version(&lock, "wasm-bindgen")?;
        let trunk: Trunk = read_toml(&workspace.join(TRUNK_TOML))?;
        if let Some(pinned) = trunk.tools.wasm_bindgen
            && pinned != wasm_bindgen
        {
            return Err(Error::Config(format!(
                "{TRUNK_TOML} pins wasm_bindgen = \"{pinned}\" but Cargo.lock has wasm-bindgen \
                 {wasm_bindgen}: make them equal"
            )));
        }
        let wasm_opt = trunk.tools.wasm_opt.ok_or_else(|| {
            Error::Config(format!(
                "{TRUNK_TOML} has no `wasm_opt` in [tools]; pin the binaryen release of \
                 tools/package.json there, e.g. wasm_opt = \"version_132\""
            ))
        })?;
        let binaryen = wasm_opt
            .strip_prefix("version_")
            .ok_or_else(|| {
                Error::Config(format!(
                    "{TRUNK_TOML} pins wasm_opt = \"{wasm_opt}\"; expected the form \"version_N\""
                ))
            })?
            .to_string();
        Ok(Pins {
            wasm_bindgen,
            binaryen,
        })
    }
}

/// The version of package `name`, which the lock must hold exactly once.
fn the_one_version(lock: &Lock, name: &str) -> Result<String, Error> {
    let versions: Vec<&str> = lock
        .package
        .iter()
        .filter(|package| package.name == name)
        .map(|package| package.version.as_str())
        .collect();
    match versions.as_slice() {
        [version] => Ok((*version).to_owned()),
        [] => Err(Error::Config(format!(
            "Cargo.lock has no `{name}` package, so there is no version for the {name} CLI to \
             match"
        ))),
        several => Err(Error::Config(format!(
            "Cargo.lock has several `{name}` versions ({}); the app must link exactly one, the \
             one the {name} CLI is installed at",
            several.join(", ")
        ))),
    }
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
        let lock: Lock = toml::from_str(LOCK).expect("a lock file");
        assert_eq!(
            the_one_version(&lock, "wasm-bindgen").expect("one"),
            "0.2.130"
        );
        assert!(matches!(
            the_one_version(&lock, "yew"),
            Err(Error::Config(message)) if message.starts_with("Cargo.lock has no `yew` package")
        ));
    }

    #[test]
    fn reads_a_key_in_its_section_only() {
        let toml = "[build]\nwasm_opt = \"no\"\n\n[tools]\n# comment\nwasm_opt = \"version_132\" # pinned\n";
        let trunk: Trunk = toml::from_str(toml).expect("a Trunk.toml");
        assert_eq!(trunk.tools.wasm_opt.as_deref(), Some("version_132"));
        assert_eq!(trunk.tools.wasm_bindgen, None);
        let no_tools: Trunk = toml::from_str("[build]\nwasm_opt = \"no\"\n").expect("valid");
        assert_eq!(no_tools.tools.wasm_opt, None);
    }

    #[test]
    fn the_project_s_own_files_agree() {
        let workspace = Workspace::locate().expect("the workspace");
        let pins = Pins::read(&workspace).expect("the pins");
        assert!(
            pins.wasm_bindgen.starts_with("0.2."),
            "{}",
            pins.wasm_bindgen
        );
        assert!(pins.binaryen.parse::<u32>().is_ok(), "{}", pins.binaryen);
    }
}
