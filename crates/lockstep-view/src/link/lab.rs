//! The chaos lab's address:
//! `#lab&backend=sql-row&fencing=off&clients=8&faults=pauses,partitions&duration=180000&runs=1000&seed=1`.
//! The settings are the chaos engine's own text form (`ChaosSettings`' `Display` and
//! `from_pairs`), followed by how many seeds and from which; the results are never in the link
//! (they are recomputed). Reading keeps every parameter it can use and names each one it cannot,
//! so a bad link loses nothing the user can see: the default stands in for what is named.
//!
//! Pure: this module does not touch the browser.

use super::error::{LinkError, LinkKind, Problem};
use lockstep_sim::analysis::chaos::{ChaosSettings, SettingsError};
use lockstep_sim::models::resource::Fencing;

/// The most seeds one lab run may ask for.
pub const MAX_RUNS: u64 = 100_000;

/// How many seeds a lab run covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunCount(pub u64);

/// What the lab runs: the settings, how many seeds and from which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabSpec {
    pub settings: ChaosSettings,
    pub runs: RunCount,
    pub first_seed: u64,
}

impl Default for LabSpec {
    /// The article's chaos test over 1,000 seeds from seed 1.
    fn default() -> LabSpec {
        LabSpec {
            settings: ChaosSettings::verification_test(Fencing::On),
            runs: RunCount(1_000),
            first_seed: 1,
        }
    }
}

/// A lab address as read: the settings it gives, and what in it could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabLink {
    pub spec: LabSpec,
    pub problems: Vec<LinkError>,
}

impl LabSpec {
    /// The fragment (without `#`) that gives these settings back.
    pub fn fragment(&self) -> String {
        format!(
            "lab&{}&runs={}&seed={}",
            self.settings, self.runs.0, self.first_seed
        )
    }
}

/// Reads the parameters after `lab` (`pairs`: name and value). Never fails: what cannot be
/// used is reported in [`LabLink::problems`] and the default stands in for it.
pub fn parse<'a>(pairs: impl Iterator<Item = (&'a str, &'a str)>) -> LabLink {
    let mut spec = LabSpec::default();
    let mut problems = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    // The settings' pairs the engine accepts one by one; together they are read once at the end.
    let mut settings: Vec<(&str, &str)> = Vec::new();
    for (name, value) in pairs {
        if seen.contains(&name) {
            problems.push(LinkError::at(name, value, Problem::RepeatedFirstCounts));
            continue;
        }
        seen.push(name);
        let set_aside = |reason: String| LinkError::at(name, value, Problem::SetAside(reason));
        match name {
            "runs" => match value.parse::<u64>() {
                Ok(n) if (1..=MAX_RUNS).contains(&n) => spec.runs = RunCount(n),
                _ => problems.push(set_aside(format!(
                    "must be a whole number from 1 to {MAX_RUNS}"
                ))),
            },
            "seed" => match value.parse::<u64>() {
                Ok(seed) => spec.first_seed = seed,
                Err(_) => problems.push(set_aside(format!(
                    "must be a whole number from 0 to {}",
                    u64::MAX
                ))),
            },
            // The counterexample search's settings (`super::search` reads them).
            search if super::search::owns(search) => {}
            _ if !ChaosSettings::KEYS.contains(&name) => {
                problems.push(LinkError::at(name, value, Problem::Unknown(LinkKind::Lab)))
            }
            _ => match ChaosSettings::from_pairs([(name, value)]) {
                Ok(_) => settings.push((name, value)),
                Err(error) => problems.push(setting(error)),
            },
        }
    }
    match ChaosSettings::from_pairs(settings) {
        Ok(read) => spec.settings = read,
        Err(error) => problems.push(setting(error)),
    }
    LabLink { spec, problems }
}

/// A setting the chaos engine refuses, at the parameter it names.
fn setting(error: SettingsError) -> LinkError {
    let (parameter, value) = match &error {
        SettingsError::BadValue { key, value, .. } => (key.clone(), value.clone()),
        SettingsError::UnknownKey(key) | SettingsError::Repeated(key) => {
            (key.clone(), String::new())
        }
        SettingsError::NoValue(part) => (part.clone(), String::new()),
    };
    LinkError {
        parameter,
        value,
        problem: Problem::Setting(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::analysis::chaos::{ChaosBackend, ClientCount, FaultKind, FaultSet};
    use lockstep_sim::world::time::Millis;

    fn read(fragment: &str) -> LabLink {
        parse(
            fragment
                .split('&')
                .filter(|p| !p.is_empty())
                .map(|p| p.split_once('=').unwrap_or((p, ""))),
        )
    }

    #[test]
    fn settings_round_trip_through_the_fragment() {
        let spec = LabSpec {
            settings: ChaosSettings {
                backend: ChaosBackend::ReplicatedCache,
                fencing: Fencing::Off,
                clients: ClientCount::new(3).expect("3 clients"),
                faults: FaultSet::of(&[FaultKind::Crashes, FaultKind::ClockJumps]),
                duration: Millis(60_000),
            },
            runs: RunCount(200),
            first_seed: 77,
        };
        let fragment = spec.fragment();
        let rest = fragment.strip_prefix("lab&").expect("a lab fragment");
        assert_eq!(
            read(rest),
            LabLink {
                spec,
                problems: Vec::new()
            }
        );
    }

    #[test]
    fn nothing_given_is_the_article_test_over_a_thousand_seeds() {
        let link = read("");
        assert_eq!(link.spec, LabSpec::default());
        assert_eq!(link.spec.runs, RunCount(1_000));
        assert!(link.problems.is_empty());
    }

    #[test]
    fn a_bad_parameter_is_named_and_the_good_ones_are_kept() {
        let link = read("backend=redlock&clients=99&fencing=maybe&zoom=2&runs=50&runs=7");
        assert_eq!(link.spec.settings.backend, ChaosBackend::Redlock);
        assert_eq!(link.spec.runs, RunCount(50));
        assert_eq!(
            link.spec.settings.clients,
            ChaosSettings::verification_test(Fencing::On).clients,
            "the default"
        );
        let messages: Vec<String> = link.problems.iter().map(ToString::to_string).collect();
        assert_eq!(messages.len(), 4, "{messages:?}");
        assert!(
            messages[0].contains("clients") && messages[0].contains("99"),
            "{messages:?}"
        );
        assert!(
            messages[1].contains("fencing") && messages[1].contains("maybe"),
            "{messages:?}"
        );
        assert_eq!(
            messages[2],
            "`zoom`: the chaos lab has no such setting (it reads backend, fencing, clients, faults, duration, runs and seed)"
        );
        assert_eq!(
            messages[3],
            "`runs` is given more than once; the first one counts"
        );
        assert_eq!(read("runs=0").problems.len(), 1);
        assert_eq!(read("seed=-1").problems.len(), 1);
        assert!(
            read("backend=etcd").problems[0]
                .to_string()
                .contains("sql-row")
        );
        assert_eq!(read("faults=pauses,floods").problems.len(), 1);
    }
}
