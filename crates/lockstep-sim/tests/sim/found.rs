//! Failures that `cargo xtask soak` found, kept as scenario files in `tests/found/` and replayed
//! by every `cargo test` as golden cases, for ever.
//!
//! Each file is a scenario the simulator reads (`lockstep-cli run tests/found/<file>` replays
//! it). Its id names the property it broke (`<property>-<digest>`, the file's name too), its
//! title says so in words and its summary says how and with which soak seed. A file that cannot
//! be read, or names no property, fails the replay: nothing here is skipped.

use crate::property::{self, Property};
use lockstep_sim::Scenario;
use std::fmt;
use std::path::{Path, PathBuf};

/// Where found cases live.
pub fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/found")
}

/// Why a found case could not be kept.
#[derive(Debug)]
pub struct KeepError {
    path: PathBuf,
    source: std::io::Error,
}

impl fmt::Display for KeepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "writing {}: {}", self.path.display(), self.source)
    }
}

/// Writes `scenario`, which broke `property` in the soak round with `seed`, into [`folder`].
pub fn keep(
    property: &Property,
    scenario: &Scenario,
    why: &str,
    seed: u64,
) -> Result<PathBuf, KeepError> {
    write_into(&folder(), property, scenario, why, seed)
}

fn write_into(
    folder: &Path,
    property: &Property,
    scenario: &Scenario,
    why: &str,
    seed: u64,
) -> Result<PathBuf, KeepError> {
    let found = as_found(property, scenario, why, seed);
    let path = folder.join(format!("{}.json", found.id));
    std::fs::create_dir_all(folder)
        .and_then(|()| std::fs::write(&path, found.to_json() + "\n"))
        .map_err(|source| KeepError {
            path: path.clone(),
            source,
        })?;
    Ok(path)
}

/// The scenario as a found case: named after the property and the scenario's own digest (so
/// the same case found twice is one file), with what broke in its summary — the first line of
/// the failure only, as the rest is usually the whole trace, which replaying shows anyway.
fn as_found(property: &Property, scenario: &Scenario, why: &str, seed: u64) -> Scenario {
    let digest = scenario
        .to_json()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        });
    let first_line: String = why.lines().next().unwrap_or("").chars().take(300).collect();
    Scenario {
        id: format!("{}-{digest:016x}", property.id),
        title: format!(
            "Found by cargo xtask soak: breaks the property `{}`",
            property.id
        ),
        summary: format!(
            "Found by cargo xtask soak (LOCKSTEP_SOAK_SEED={seed}), shrunk by proptest: {first_line}"
        ),
        ..scenario.clone()
    }
}

/// Every file in `folder`, sorted by name, each with the scenario it holds or why not.
fn read_all(folder: &Path) -> Vec<(PathBuf, Result<Scenario, String>)> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .map(|entry| entry.expect("a readable folder entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let read = std::fs::read(&path)
                .map_err(|e| e.to_string())
                .and_then(|bytes| Scenario::parse_bytes(&bytes).map_err(|e| e.to_string()));
            (path, read)
        })
        .collect()
}

/// Replays one found file: it must be named after its id, name one of `among`, and pass it.
fn replay(path: &Path, read: Result<Scenario, String>, among: &[&Property]) -> Result<(), String> {
    let scenario = read?;
    if path.file_stem().and_then(|s| s.to_str()) != Some(scenario.id.as_str()) {
        return Err(format!("its id is {}, not its file's name", scenario.id));
    }
    let property = among
        .iter()
        .find(|property| property.is_named_by(&scenario.id))
        .ok_or_else(|| format!("its id {} names no property", scenario.id))?;
    (property.check)(&scenario).map_err(|e| format!("`{}` still fails: {e}", property.id))
}

#[test]
fn every_found_case_passes_the_property_it_once_broke() {
    let failures: Vec<String> = read_all(&folder())
        .into_iter()
        .filter_map(|(path, read)| {
            replay(&path, read, &property::ALL)
                .err()
                .map(|why| format!("{}: {why}", path.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The way a soak keeps a case and the way `cargo test` replays it agree: a case written with
/// `write_into` reads back as the same run, names its property, and its replay fails when the
/// property fails — here, a property built to fail on every scenario.
#[test]
fn a_kept_case_reads_back_names_its_property_and_fails_while_the_property_does() {
    fn always_fails(_: &Scenario) -> Result<(), proptest::test_runner::TestCaseError> {
        Err(proptest::test_runner::TestCaseError::fail("built to fail"))
    }
    let scenario = crate::support::built_in("s2-gc-pause-fenced");
    let folder = std::env::temp_dir().join(format!("lockstep-found-{}", std::process::id()));
    let property = crate::properties::RANDOM_RUNS;
    let path = write_into(&folder, &property, &scenario, "it broke\nthe trace", 7).expect("kept");
    let read = read_all(&folder);
    std::fs::remove_dir_all(&folder).expect("the temporary folder goes");
    let [(read_path, Ok(found))] = &read[..] else {
        panic!("one readable file: {read:?}");
    };
    assert_eq!(read_path, &path);
    assert_eq!(
        found.summary,
        "Found by cargo xtask soak (LOCKSTEP_SOAK_SEED=7), shrunk by proptest: it broke"
    );
    assert!(property.is_named_by(&found.id), "{}", found.id);
    assert_eq!(
        lockstep_sim::Sim::new(found)
            .map(|mut s| {
                s.run_to_end();
                s.hash()
            })
            .ok(),
        lockstep_sim::Sim::new(&scenario)
            .map(|mut s| {
                s.run_to_end();
                s.hash()
            })
            .ok(),
        "the same run"
    );
    assert_eq!(replay(&path, Ok(found.clone()), &property::ALL), Ok(()));
    let broken = Property {
        check: always_fails,
        ..property
    };
    let replayed = replay(&path, Ok(found.clone()), &[&broken]);
    assert!(replayed.is_err_and(|why| why.contains("built to fail")));
    assert!(
        replay(&path, Ok(found.clone()), &[]).is_err(),
        "names no property"
    );
}
