//! The chaos lab's address: `#lab&backend=sql-row&fencing=off&clients=8&runs=1000&seed=1`. The
//! settings live in the link, the results never do (they are recomputed). Reading keeps every
//! parameter it can use and names each one it cannot, with the value it uses instead, so that
//! a bad link loses nothing the user can see.
//!
//! Pure: this module does not touch the browser.

use crate::lab_engine::{ChaosBackend, ChaosSettings, ClientCount};
use lockstep_sim::resource::Fencing;
use std::fmt;

/// The most seeds one lab run may ask for.
pub const MAX_RUNS: u64 = 100_000;
/// The most contending clients.
pub const MAX_CLIENTS: u8 = 16;

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

/// A parameter of a lab link that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LabLinkError {
    Bad {
        parameter: &'static str,
        value: String,
        reason: String,
    },
    UnknownParameter(String),
}

impl fmt::Display for LabLinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabLinkError::Bad {
                parameter,
                value,
                reason,
            } => write!(f, "`{parameter}={value}`: {reason}"),
            LabLinkError::UnknownParameter(name) => {
                write!(f, "`{name}`: the chaos lab has no such setting")
            }
        }
    }
}

/// A lab address as read: the settings it gives, and what in it could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabLink {
    pub spec: LabSpec,
    pub problems: Vec<LabLinkError>,
}

fn fencing_word(fencing: Fencing) -> &'static str {
    match fencing {
        Fencing::Off => "off",
        _ => "on",
    }
}

impl LabSpec {
    /// The fragment (without `#`) that gives these settings back.
    pub fn fragment(&self) -> String {
        format!(
            "lab&backend={}&fencing={}&clients={}&runs={}&seed={}",
            self.settings.backend.id(),
            fencing_word(self.settings.fencing),
            self.settings.clients.0,
            self.runs.0,
            self.first_seed
        )
    }
}

/// Reads the parameters after `lab` (`pairs`: name and value). Never fails: what cannot be
/// used is reported in [`LabLink::problems`] and the default stands in for it.
pub fn parse<'a>(pairs: impl Iterator<Item = (&'a str, &'a str)>) -> LabLink {
    let mut spec = LabSpec::default();
    let mut problems = Vec::new();
    for (name, value) in pairs {
        let bad = |parameter: &'static str, reason: String| LabLinkError::Bad {
            parameter,
            value: value.to_owned(),
            reason,
        };
        let read: Result<(), LabLinkError> = match name {
            "backend" => ChaosBackend::from_id(value)
                .map(|backend| spec.settings.backend = backend)
                .ok_or_else(|| {
                    let ids: Vec<&str> = ChaosBackend::ALL.iter().map(|b| b.id()).collect();
                    bad(
                        "backend",
                        format!("not a lock service; one of {}", ids.join(", ")),
                    )
                }),
            "fencing" => match value {
                "on" | "off" => {
                    spec.settings.fencing = if value == "on" {
                        Fencing::On
                    } else {
                        Fencing::Off
                    };
                    Ok(())
                }
                _ => Err(bad("fencing", "must be on or off".to_owned())),
            },
            "clients" => match value.parse::<u8>() {
                Ok(n) if (1..=MAX_CLIENTS).contains(&n) => {
                    spec.settings.clients = ClientCount(n);
                    Ok(())
                }
                _ => Err(bad(
                    "clients",
                    format!("must be a whole number from 1 to {MAX_CLIENTS}"),
                )),
            },
            "runs" => match value.parse::<u64>() {
                Ok(n) if (1..=MAX_RUNS).contains(&n) => {
                    spec.runs = RunCount(n);
                    Ok(())
                }
                _ => Err(bad(
                    "runs",
                    format!("must be a whole number from 1 to {MAX_RUNS}"),
                )),
            },
            "seed" => value
                .parse::<u64>()
                .map(|seed| spec.first_seed = seed)
                .map_err(|_| {
                    bad(
                        "seed",
                        format!("must be a whole number from 0 to {}", u64::MAX),
                    )
                }),
            // The counterexample search's settings (`crate::search_link` reads them).
            search if crate::search_link::owns(search) => Ok(()),
            other => Err(LabLinkError::UnknownParameter(other.to_owned())),
        };
        if let Err(problem) = read {
            problems.push(problem);
        }
    }
    LabLink { spec, problems }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                backend: ChaosBackend::Redlock,
                fencing: Fencing::Off,
                clients: ClientCount(3),
                ..ChaosSettings::verification_test(Fencing::Off)
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
        let link = read("backend=redlock&clients=99&fencing=maybe&zoom=2&runs=50");
        assert_eq!(link.spec.settings.backend, ChaosBackend::Redlock);
        assert_eq!(link.spec.runs, RunCount(50));
        assert_eq!(link.spec.settings.clients, ClientCount(8), "the default");
        let messages: Vec<String> = link.problems.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "`clients=99`: must be a whole number from 1 to 16",
                "`fencing=maybe`: must be on or off",
                "`zoom`: the chaos lab has no such setting",
            ]
        );
        assert!(read("runs=0").problems.len() == 1);
        assert!(read("seed=-1").problems.len() == 1);
        assert!(
            read("backend=etcd").problems[0]
                .to_string()
                .contains("sql-row")
        );
    }
}
