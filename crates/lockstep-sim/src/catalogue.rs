//! The built-in scenario catalogue: the files in the repository's `scenarios/` folder, embedded
//! at build time (by `build.rs`, in catalogue order) so the app and the CLI carry them without
//! reading a disk.

use crate::scenario::{Scenario, ScenarioError};

/// One built-in scenario: its id (the file name without `.json`) and its source text.
#[derive(Clone, Copy, Debug)]
pub struct BuiltIn {
    pub id: &'static str,
    pub json: &'static str,
}

pub const BUILT_IN: &[BuiltIn] = include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));

/// The scenario the app opens with.
pub const DEFAULT_ID: &str = "s2-gc-pause-fenced";

pub fn find(id: &str) -> Option<BuiltIn> {
    BUILT_IN.iter().copied().find(|b| b.id == id)
}

impl BuiltIn {
    pub fn load(&self) -> Result<Scenario, ScenarioError> {
        Scenario::parse(self.json)
    }
}
