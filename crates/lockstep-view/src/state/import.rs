//! Opening a file's text: a scenario file, or a trace exported by the app, replayed and checked
//! against its hash. A trace that names a built-in scenario (and carries no scenario file) is
//! replayed from that scenario's file, which the caller loads ([`built_in_of_trace`] says which)
//! and sends in [`super::Action::Import`]. Pure: it reads nothing but its input.

use super::{Comparison, Notice, Origin, Playground};
use lockstep_sim::scenario::catalogue;
use lockstep_sim::scenario::types::Scenario;
use lockstep_sim::story::trace_import::ImportedTrace;
use serde::Deserialize;
use serde::de::IgnoredAny;
use std::rc::Rc;

/// The built-in scenario an exported trace replays from, if it names one and carries no
/// scenario file: the file to load before importing it. Only a peek: the reducer reads the
/// file strictly.
pub fn built_in_of_trace(text: &str) -> Option<&'static str> {
    #[derive(Deserialize)]
    struct Peek {
        scenario: Option<String>,
        source: Option<IgnoredAny>,
        events: Option<IgnoredAny>,
    }
    let peek: Peek = serde_json::from_str(text.trim_start_matches('\u{feff}')).ok()?;
    if peek.events.is_none() || peek.source.is_some() {
        return None;
    }
    catalogue::entry(&peek.scenario?).map(|e| e.id)
}

impl Playground {
    /// A scenario file, or a trace exported by the app (told apart by its `events`).
    pub(super) fn import(&self, text: &str, named: Option<Rc<Scenario>>) -> Playground {
        // The first value decides, so that a trace with something after it is refused as a
        // trace (the strict reading below says where), not as a scenario file.
        let first = serde_json::Deserializer::from_str(text.trim_start_matches('\u{feff}'))
            .into_iter::<serde_json::Value>()
            .next();
        if matches!(&first, Some(Ok(value)) if value.get("history").is_some()) {
            return self.noticed(Notice::Problem(
                "This is a recorded history of a real system, not a scenario or a trace: open it \
                 on the Real runs page (\"Load a recorded history\"), which draws it and judges \
                 it beside its simulation."
                    .to_owned(),
            ));
        }
        let is_trace = matches!(first, Some(Ok(value)) if value.get("events").is_some());
        if is_trace {
            return self
                .import_trace(text, named)
                .unwrap_or_else(|problem| self.noticed(Notice::Problem(problem)));
        }
        match Scenario::parse(text) {
            Ok(scenario) => self.opened(Origin::Custom, scenario),
            Err(e) => self.noticed(Notice::Problem(format!(
                "This scenario file cannot be read: {e}"
            ))),
        }
    }

    /// Replays an exported trace — from the scenario file inside it, or the built-in scenario it
    /// names — and opens it at its end if the replay gives the same trace.
    fn import_trace(&self, text: &str, named: Option<Rc<Scenario>>) -> Result<Playground, String> {
        let export =
            ImportedTrace::parse(text).map_err(|e| format!("This trace cannot be read: {e}"))?;
        let (origin, scenario) = match export.source {
            Some(scenario) => (Origin::Custom, scenario),
            None => {
                let entry = catalogue::entry(&export.scenario).ok_or_else(|| {
                    format!(
                        "This trace names the scenario \"{}\", which is not built in, and it \
                         carries no scenario file (`source`) to replay: import that scenario's \
                         file instead.",
                        export.scenario
                    )
                })?;
                // The importer loads the named file ([`built_in_of_trace`]) and sends it along.
                let scenario = named.filter(|s| s.id == entry.id).ok_or_else(|| {
                    format!("The scenario {} is not loaded yet: try again.", entry.id)
                })?;
                (Origin::BuiltIn(entry.id), (*scenario).clone())
            }
        };
        let replayed = Playground::build(
            origin,
            scenario,
            export.seed,
            Vec::new(),
            Some(export.events.len()),
            Comparison::Off,
        )
        .map_err(|problem| format!("This trace's scenario cannot run: {problem}"))?;
        // The hash covers every event; the events themselves are compared too, so that a file
        // whose events were edited but whose hash was not is caught as well.
        let trace = replayed.run.sim.trace();
        let first_difference = export
            .events
            .iter()
            .zip(trace)
            .position(|(theirs, ours)| {
                theirs.kind != ours.happening.kind() || theirs.time_ms != ours.time.0
            })
            .map(|i| format!("they first differ at event {i}"))
            .or_else(|| {
                (export.events.len() != trace.len()).then(|| {
                    format!(
                        "it has {} events, the replay {}",
                        export.events.len(),
                        trace.len()
                    )
                })
            })
            .or_else(|| {
                (replayed.full_hash() != export.hash).then(|| "the hashes differ".to_owned())
            });
        if let Some(difference) = first_difference {
            return Err(format!(
                "This trace does not replay: its hash is {}, the replay's {} ({difference}). \
                 It was changed, or made by another version of Lockstep.",
                export.hash,
                replayed.full_hash()
            ));
        }
        Ok(Playground {
            speed: self.speed,
            notice: Some(Notice::Info(format!(
                "Trace imported: the replay of its {} events gives the same hash, {}.",
                export.events.len(),
                export.hash
            ))),
            ..replayed
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_without_its_scenario_file_names_the_built_in_to_load() {
        let trace = r#"{"format": 1, "scenario": "s3-fencing-gap", "seed": 7, "events": []}"#;
        assert_eq!(built_in_of_trace(trace), Some("s3-fencing-gap"));
        let carried = r#"{"scenario": "s3-fencing-gap", "source": {}, "events": []}"#;
        assert_eq!(built_in_of_trace(carried), None, "it carries its scenario");
        let scenario_file = r#"{"format": 1, "id": "s3-fencing-gap"}"#;
        assert_eq!(built_in_of_trace(scenario_file), None, "not a trace");
        let unknown = r#"{"scenario": "no-such-scenario", "events": []}"#;
        assert_eq!(built_in_of_trace(unknown), None);
    }
}
