//! Reading a scenario file: the version first, then the fields, then everything serde cannot
//! check. Parsing never panics. Unknown fields and bad values are errors that name the field and
//! the reason; `Scenario::parse` returns either a scenario that `Sim::new` will accept or such an
//! error.

use crate::scenario::error::ScenarioError;
use crate::scenario::format;
use crate::scenario::strict_json;
use crate::scenario::types::Scenario;

impl Scenario {
    /// Reads and validates a scenario file.
    pub fn parse(json: &str) -> Result<Scenario, ScenarioError> {
        // The version first: a file of another format should say so, not list unknown fields.
        format::check(json)?;
        let scenario: Scenario = strict_json::from_str(json, "scenario")?;
        scenario.check()?;
        Ok(scenario)
    }

    /// Reads and validates a scenario file given as bytes, which must be UTF-8 text.
    pub fn parse_bytes(bytes: &[u8]) -> Result<Scenario, ScenarioError> {
        Scenario::parse(strict_json::text(bytes)?)
    }
}
