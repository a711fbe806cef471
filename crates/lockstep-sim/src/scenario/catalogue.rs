//! The built-in scenario catalogue: the files in the repository's `scenarios/` folder.
//!
//! Always here: the catalogue's [`INDEX`] (each scenario's id, title and file size, written by
//! `build.rs` in catalogue order) and the default scenario's file. With the
//! `embedded-catalogue` feature (on by default: the CLI and the tests), every file is embedded
//! too ([`BUILT_IN`], [`find`]). The app turns the feature off and fetches a scenario's file
//! from the site when it is opened, so its wasm does not carry the catalogue.

use crate::scenario::error::ScenarioError;
use crate::scenario::types::Scenario;

/// One scenario of the catalogue, as the index lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The file name without `.json`.
    pub id: &'static str,
    pub title: &'static str,
    /// The file's size in bytes.
    pub bytes: usize,
}

/// Every built-in scenario, in catalogue order.
pub const INDEX: &[Entry] = include!(concat!(env!("OUT_DIR"), "/index.rs"));

/// The scenario the app opens with.
pub const DEFAULT_ID: &str = "s2-gc-pause-fenced";

/// The default scenario's file: the first screen shows it, so it is always embedded.
pub const DEFAULT_JSON: &str = include_str!("../../../../scenarios/s2-gc-pause-fenced.json");

/// Ids the catalogue had before a scenario was renamed, and the id each has now: a link, an
/// embed or a trace that names an old id opens the scenario under its new one.
pub const RENAMED: &[(&str, &str)] = &[
    ("gc-pause-fenced", "s2-gc-pause-fenced"),
    ("s8-held-safely-seed", "s8-held-safely-from-acquisition"),
    (
        "s9-failover-tokens-go-backwards",
        "s9-failover-reissues-a-token",
    ),
];

/// The id a built-in scenario has now, given any id it ever had.
pub fn current_id(id: &str) -> &str {
    RENAMED
        .iter()
        .find(|(old, _)| *old == id)
        .map_or(id, |(_, new)| new)
}

/// The index entry of the built-in scenario `id` (or an id it had before, see [`RENAMED`]).
pub fn entry(id: &str) -> Option<&'static Entry> {
    let id = current_id(id);
    INDEX.iter().find(|e| e.id == id)
}

/// One built-in scenario: its id (the file name without `.json`) and its source text.
#[cfg(feature = "embedded-catalogue")]
#[derive(Clone, Copy, Debug)]
pub struct BuiltIn {
    pub id: &'static str,
    pub json: &'static str,
}

/// Every built-in scenario's file, in catalogue order.
#[cfg(feature = "embedded-catalogue")]
pub const BUILT_IN: &[BuiltIn] = include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));

/// The built-in scenario `id` (or an id it had before, see [`RENAMED`]).
#[cfg(feature = "embedded-catalogue")]
pub fn find(id: &str) -> Option<BuiltIn> {
    let id = current_id(id);
    BUILT_IN.iter().copied().find(|b| b.id == id)
}

#[cfg(feature = "embedded-catalogue")]
impl BuiltIn {
    pub fn load(&self) -> Result<Scenario, ScenarioError> {
        Scenario::parse(self.json)
    }
}

/// The default scenario, parsed.
pub fn default_scenario() -> Result<Scenario, ScenarioError> {
    Scenario::parse(DEFAULT_JSON)
}

#[cfg(all(test, feature = "embedded-catalogue"))]
mod tests {
    use super::*;

    #[test]
    fn the_index_lists_every_embedded_file_with_its_title_and_size() {
        assert_eq!(INDEX.len(), BUILT_IN.len());
        for (entry, built_in) in INDEX.iter().zip(BUILT_IN) {
            assert_eq!(entry.id, built_in.id);
            assert_eq!(entry.bytes, built_in.json.len(), "{}", entry.id);
            let scenario = built_in
                .load()
                .unwrap_or_else(|e| panic!("{}: {e}", entry.id));
            assert_eq!(entry.title, scenario.title, "{}", entry.id);
        }
    }

    #[test]
    fn the_default_scenario_is_the_catalogue_file() {
        assert_eq!(find(DEFAULT_ID).map(|b| b.json), Some(DEFAULT_JSON));
    }
}
