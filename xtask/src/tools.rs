//! Installing the tools that building and testing need, each at a pinned version and only when
//! it is missing or at another version; whatever is already right is reused, never reinstalled.
//!
//! | tool | pinned by | installed with |
//! |---|---|---|
//! | rustfmt, clippy | the Rust toolchain | `rustup component add` |
//! | wasm32-unknown-unknown | the Rust toolchain | `rustup target add` |
//! | Trunk | [`TRUNK_VERSION`] | `cargo install --locked trunk` |
//! | wasm-bindgen CLI | `Cargo.lock` | `cargo install wasm-bindgen-cli` (`--locked` fails here) |
//! | wasm-opt | `tools/package-lock.json` (npm binaryen), `Trunk.toml` | `npm ci` in `tools/` |
//! | Chromium | Debian | `apt-get install chromium chromium-driver` |
//! | PostgreSQL, Redis, etcd, gcc, curl (the reality check's step) | Debian | `apt-get install postgresql redis-server etcd-server gcc curl` |
//! | browser-test harness | `e2e/package-lock.json` (playwright-core) | `npm ci` in `e2e/` |
//! | twiggy (the bench's wasm composition) | [`TWIGGY_VERSION`] | `cargo install --locked twiggy` |
//! | mdBook (the book, `book/`) | [`MDBOOK_VERSION`] | `cargo install --locked mdbook`, search only |

use std::path::Path;

use crate::error::Error;
use crate::install::{Found, ensure, ensure_debian, version_check, word_after};
use crate::pins::Pins;
use crate::process::{self, probe};
use crate::workspace::Workspace;

/// Trunk's version. 0.22 needs a newer rustc than the project's 1.95.
const TRUNK_VERSION: &str = "0.21.14";
/// mdBook's version: the `mdbook-preprocessor` library that `crates/mdbook-lockstep` is built on
/// is pinned to the same one (`=0.5.4`), so the JSON mdBook sends is the JSON it reads.
pub const MDBOOK_VERSION: &str = "0.5.4";
/// twiggy's version, which `cargo xtask bench` reads the wasm's composition with.
pub const TWIGGY_VERSION: &str = "0.7.0";
const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// Debian's Chromium, which the browser tests drive (a test tool's own browser download fails on
/// these machines: they reach package registries only).
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// Everything `serve` and `dist` need: the wasm target, Trunk, wasm-bindgen and wasm-opt.
pub fn ensure_web(workspace: &Workspace) -> Result<(), Error> {
    let pins = Pins::read(workspace)?;
    ensure_wasm_target(workspace)?;
    ensure_trunk(workspace)?;
    ensure_wasm_bindgen(workspace, &pins.wasm_bindgen)?;
    ensure_wasm_opt(workspace, &pins.binaryen)
}

/// Everything `test` needs: [`ensure_web`], plus rustfmt, clippy, mdBook, Chromium, the real
/// servers of the reality check's step and the browser-test harness.
pub fn ensure_all(workspace: &Workspace) -> Result<(), Error> {
    ensure_rust_components(workspace)?;
    ensure_web(workspace)?;
    ensure_mdbook(workspace)?;
    ensure_chromium(workspace)?;
    ensure_real_services(workspace)?;
    ensure_e2e_harness(workspace)
}

fn ensure_rust_components(workspace: &Workspace) -> Result<(), Error> {
    ensure(
        "rustfmt and clippy",
        "from rustup, a few seconds",
        || {
            let listed =
                probe(
                    workspace
                        .command("rustup")
                        .args(["component", "list", "--installed"]),
                )?;
            let Some(listed) = listed else {
                return Ok(Found::Missing);
            };
            let has = |name: &str| listed.lines().any(|line| line.starts_with(name));
            Ok(match (has("rustfmt"), has("clippy")) {
                (true, true) => Found::Ready,
                (false, false) => Found::Missing,
                (true, false) => Found::Other("rustfmt only".to_string()),
                (false, true) => Found::Other("clippy only".to_string()),
            })
        },
        || {
            process::run(workspace.command("rustup").args([
                "component",
                "add",
                "rustfmt",
                "clippy",
            ]))
        },
    )
}

fn ensure_wasm_target(workspace: &Workspace) -> Result<(), Error> {
    ensure(
        &format!("Rust target {WASM_TARGET}"),
        "from rustup, about half a minute",
        || {
            let listed =
                probe(
                    workspace
                        .command("rustup")
                        .args(["target", "list", "--installed"]),
                )?;
            Ok(match listed {
                Some(listed) if listed.lines().any(|line| line.trim() == WASM_TARGET) => {
                    Found::Ready
                }
                _ => Found::Missing,
            })
        },
        || {
            process::run(
                workspace
                    .command("rustup")
                    .args(["target", "add", WASM_TARGET]),
            )
        },
    )
}

fn ensure_trunk(workspace: &Workspace) -> Result<(), Error> {
    ensure(
        &format!("Trunk {TRUNK_VERSION}"),
        "compiles from source, about 4-5 minutes on 2 cores",
        || {
            let reported = probe(workspace.command("trunk").arg("--version"))?;
            Ok(version_check(word_after(reported, "trunk"), TRUNK_VERSION))
        },
        // Without its default features: no TLS and no update check, which an offline Trunk
        // (Trunk.toml) never uses.
        || {
            process::run(cargo_install(workspace).args([
                "--locked",
                "trunk",
                "--version",
                TRUNK_VERSION,
                "--no-default-features",
            ]))
        },
    )
}

fn ensure_wasm_bindgen(workspace: &Workspace, version: &str) -> Result<(), Error> {
    ensure(
        &format!("wasm-bindgen-cli {version}"),
        "compiles from source, about 2 minutes on 2 cores",
        || {
            let reported = probe(workspace.command("wasm-bindgen").arg("--version"))?;
            Ok(version_check(word_after(reported, "wasm-bindgen"), version))
        },
        // Not `--locked`: the lock file it ships names a dependency version that the registry
        // no longer serves, so a locked install fails.
        || process::run(cargo_install(workspace).args(["wasm-bindgen-cli", "--version", version])),
    )
}

fn ensure_wasm_opt(workspace: &Workspace, binaryen: &str) -> Result<(), Error> {
    let wasm_opt = workspace.join("tools/node_modules/.bin/wasm-opt");
    ensure(
        &format!("wasm-opt {binaryen} (npm package binaryen, in tools/)"),
        "npm ci, a few seconds",
        || {
            let reported = probe(workspace.command(&wasm_opt).arg("--version"))?;
            Ok(version_check(word_after(reported, "version"), binaryen))
        },
        || npm_ci(workspace, "tools"),
    )
}

/// mdBook, which builds the book (`cargo xtask dist`, `serve`, `test`). Without its default
/// features: no `serve` or `watch` (xtask serves and rebuilds the book itself), so it compiles in
/// about a minute; `search` keeps the book's search box.
pub(crate) fn ensure_mdbook(workspace: &Workspace) -> Result<(), Error> {
    ensure(
        &format!("mdBook {MDBOOK_VERSION}"),
        "compiles from source, about a minute on 2 cores",
        || {
            // It says `mdbook v0.5.4`.
            let reported = probe(workspace.command("mdbook").arg("--version"))?;
            let version = word_after(reported, "mdbook")
                .map(|version| version.trim_start_matches('v').to_string());
            Ok(version_check(version, MDBOOK_VERSION))
        },
        || {
            process::run(cargo_install(workspace).args([
                "--locked",
                "mdbook",
                "--version",
                MDBOOK_VERSION,
                "--no-default-features",
                "--features",
                "search",
            ]))
        },
    )
}

pub(crate) fn ensure_twiggy(workspace: &Workspace) -> Result<(), Error> {
    ensure(
        &format!("twiggy {TWIGGY_VERSION}"),
        "compiles from source, about 2-4 minutes on 2 cores",
        || {
            // It calls itself `twiggy-opt` when asked its version.
            let reported = probe(workspace.command("twiggy").arg("--version"))?;
            Ok(version_check(
                word_after(reported, "twiggy-opt"),
                TWIGGY_VERSION,
            ))
        },
        || {
            process::run(cargo_install(workspace).args([
                "--locked",
                "twiggy",
                "--version",
                TWIGGY_VERSION,
            ]))
        },
    )
}

/// `cargo install`, with a release profile built for compile time rather than speed: these
/// tools spend their time waiting on cargo, wasm-opt and the disk, not on their own code, and
/// their authors' profiles (fat LTO, one codegen unit, full optimisation) cost minutes on two
/// cores for nothing here. Config settings outrank a package's own profile.
fn cargo_install(workspace: &Workspace) -> std::process::Command {
    let mut command = workspace.cargo();
    command
        .arg("install")
        .env("CARGO_PROFILE_RELEASE_LTO", "false")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "1")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
        .env("CARGO_PROFILE_RELEASE_INCREMENTAL", "false");
    command
}

pub(crate) fn ensure_chromium(workspace: &Workspace) -> Result<(), Error> {
    ensure_debian(
        workspace,
        "Chromium (Debian's chromium and chromium-driver)",
        "apt-get, about a minute",
        || Path::new(CHROMIUM).exists(),
        &["chromium", "chromium-driver"],
    )
}

/// Debian's PostgreSQL, Redis and etcd servers, which the reality check (`crates/lockstep-real`)
/// starts on loopback for its tests: PostgreSQL of any major version, with its `initdb`; gcc,
/// which compiles the clock shim a Redis node whose clock jumps runs on; and curl, which fetches
/// Debian 13's etcd 3.5, unpacked beside Debian 12's (`etcd_unpacked.rs`). Nothing here is
/// needed to build: etcd is reached through its JSON gateway (decision 39), with no protoc.
pub(crate) fn ensure_real_services(workspace: &Workspace) -> Result<(), Error> {
    let installed = || {
        let postgres = std::fs::read_dir("/usr/lib/postgresql").is_ok_and(|versions| {
            versions
                .filter_map(Result::ok)
                .any(|version| version.path().join("bin/initdb").exists())
        });
        postgres
            && [
                "/usr/bin/redis-server",
                "/usr/bin/etcd",
                "/usr/bin/gcc",
                "/usr/bin/curl",
            ]
            .iter()
            .all(|program| Path::new(program).exists())
    };
    ensure_debian(
        workspace,
        "PostgreSQL, Redis, etcd, a C compiler and curl (Debian's postgresql, redis-server, \
         etcd-server, gcc, curl)",
        "apt-get, about a minute",
        installed,
        &["postgresql", "redis-server", "etcd-server", "gcc", "curl"],
    )?;
    crate::etcd_unpacked::ensure_etcd_3_5(workspace)
}

/// Lists the packages of `package-lock.json` (in the current directory) that `node_modules` lacks
/// or has at another version, comma-separated; prints nothing when all match. (Optional packages
/// for other platforms are never installed, and are not missing.)
const STALE_PACKAGES_JS: &str = r#"
const fs = require("fs");
const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
const stale = [];
for (const [path, meta] of Object.entries(lock.packages)) {
  if (path === "" || meta.link) continue;
  let version = "none";
  try { version = JSON.parse(fs.readFileSync(path + "/package.json", "utf8")).version; } catch {}
  if (version === "none" && meta.optional) continue;
  if (version !== meta.version) stale.push(path.replace(/^.*node_modules\//, "") + " " + version);
}
process.stdout.write(stale.join(", "));
"#;

pub(crate) fn ensure_e2e_harness(workspace: &Workspace) -> Result<(), Error> {
    let dir = workspace.join("e2e");
    ensure(
        "browser-test harness (npm packages of e2e/package-lock.json)",
        "npm ci, a few seconds",
        || {
            if !dir.join("node_modules").is_dir() {
                return Ok(Found::Missing);
            }
            let stale = probe(
                workspace
                    .command("node")
                    .args(["-e", STALE_PACKAGES_JS])
                    .current_dir(&dir),
            )?;
            Ok(match stale {
                None => Found::Other("node_modules unreadable".to_string()),
                Some(stale) if stale.is_empty() => Found::Ready,
                Some(stale) => Found::Other(stale),
            })
        },
        || npm_ci(workspace, "e2e"),
    )
}

/// `npm ci` in `dir`: installs exactly what its `package-lock.json` pins. Playwright must never
/// try to download a browser of its own (it would fail here); Debian's Chromium is used.
fn npm_ci(workspace: &Workspace, dir: &str) -> Result<(), Error> {
    process::run(
        workspace
            .command("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(workspace.join(dir))
            .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1"),
    )
}
