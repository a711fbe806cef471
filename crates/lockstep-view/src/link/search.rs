//! The counterexample search's part of the lab's address, e.g.
//! `#lab&search=s1-gc-pause-unfenced&search-invariant=no_stale_write&search-faults=1`: which
//! built-in scenario to search, whether to fence its register, the invariant, how many faults
//! of which kinds, and how long a run may be. A lesson's "Search for a counterexample" links
//! here. Reading keeps every parameter it can use and names each one it cannot.
//!
//! Pure: this module does not touch the browser. The search configuration these settings make
//! from a loaded scenario is `crate::lab::search_config`'s.

use super::error::{LinkError, LinkKind, Problem};
use super::fencing::fencing_word;
use super::params;
use lockstep_sim::analysis::search::{Bounds, MAX_FAULTS};
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::catalogue;
use lockstep_sim::vocabulary::invariant::Invariant;
use strum::VariantArray;

/// The longest run a search from the page may look at, in events.
pub const MAX_EVENTS: u32 = 2_000;

/// A kind of fault the search may strike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, strum::VariantArray)]
pub enum FaultKind {
    Pauses,
    Partitions,
    ClockJumps,
    MessageDelays,
}

impl FaultKind {
    pub fn id(self) -> &'static str {
        match self {
            FaultKind::Pauses => "pauses",
            FaultKind::Partitions => "partitions",
            FaultKind::ClockJumps => "clock-jumps",
            FaultKind::MessageDelays => "message-delays",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            FaultKind::Pauses => "Process pauses",
            FaultKind::Partitions => "Partitions",
            FaultKind::ClockJumps => "Clock jumps on the lock service",
            FaultKind::MessageDelays => "Messages held back",
        }
    }

    fn from_id(id: &str) -> Option<FaultKind> {
        FaultKind::VARIANTS
            .iter()
            .copied()
            .find(|kind| kind.id() == id)
    }
}

/// The register's fencing for the search: the scenario's own, or set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FencingChoice {
    AsScenario,
    Set(Fencing),
}

/// What the search section searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchSpec {
    /// A built-in scenario's id.
    pub scenario: &'static str,
    pub fencing: FencingChoice,
    /// `None`: the first invariant the scenario expects to break, else "no stale write".
    pub invariant: Option<Invariant>,
    pub faults: u8,
    pub kinds: Vec<FaultKind>,
    pub max_events: u32,
}

impl Default for SearchSpec {
    /// S1's two clients and SQL row, one pause.
    fn default() -> SearchSpec {
        SearchSpec {
            scenario: "s1-gc-pause-unfenced",
            fencing: FencingChoice::AsScenario,
            invariant: None,
            faults: 1,
            kinds: vec![FaultKind::Pauses],
            max_events: Bounds::default().max_events,
        }
    }
}

/// The search's settings as the address gives them, whether it named a search at all, and what
/// in it could not be used.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLink {
    pub spec: SearchSpec,
    pub named: bool,
    pub problems: Vec<LinkError>,
}

/// Whether a lab parameter is the search's.
pub fn owns(name: &str) -> bool {
    name == "search" || name.starts_with("search-")
}

/// Reads the search's parameters from a lab fragment (with or without `#`); the others are the
/// lab's and are skipped.
pub fn parse(fragment: &str) -> SearchLink {
    let mut link = SearchLink::default();
    for (name, value) in params::pairs(fragment).filter(|(name, _)| owns(name)) {
        link.named = true;
        if let Err(problem) = read(&mut link.spec, name, value) {
            link.problems.push(problem);
        }
    }
    link
}

/// Reads one of the search's parameters into `spec`.
fn read(spec: &mut SearchSpec, name: &str, value: &str) -> Result<(), LinkError> {
    let bad = |parameter: &str, reason: String| {
        LinkError::at(parameter, value, Problem::SetAside(reason))
    };
    match name {
        "search" => catalogue::entry(value)
            .map(|entry| spec.scenario = entry.id)
            .ok_or_else(|| bad("search", "not a built-in scenario".to_owned())),
        "search-fencing" => match value {
            "on" => Some(Fencing::On),
            "off" => Some(Fencing::Off),
            _ => None,
        }
        .map(|fencing| spec.fencing = FencingChoice::Set(fencing))
        .ok_or_else(|| bad("search-fencing", "must be on or off".to_owned())),
        "search-invariant" => Invariant::from_id(value)
            .map(|invariant| spec.invariant = Some(invariant))
            .ok_or_else(|| {
                let ids: Vec<&str> = Invariant::ALL.iter().map(|i| i.id()).collect();
                bad("search-invariant", format!("one of {}", ids.join(", ")))
            }),
        "search-faults" => value
            .parse::<u8>()
            .ok()
            .filter(|n| *n <= MAX_FAULTS)
            .map(|n| spec.faults = n)
            .ok_or_else(|| {
                bad(
                    "search-faults",
                    format!("a whole number from 0 to {MAX_FAULTS}"),
                )
            }),
        "search-kinds" => value
            .split(',')
            .map(FaultKind::from_id)
            .collect::<Option<Vec<_>>>()
            .filter(|kinds| !kinds.is_empty())
            .map(|mut kinds| {
                kinds.sort();
                kinds.dedup();
                spec.kinds = kinds;
            })
            .ok_or_else(|| {
                let ids: Vec<&str> = FaultKind::VARIANTS.iter().map(|k| k.id()).collect();
                bad(
                    "search-kinds",
                    format!("a comma-separated list of {}", ids.join(", ")),
                )
            }),
        "search-max-events" => value
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_EVENTS).contains(n))
            .map(|n| spec.max_events = n)
            .ok_or_else(|| {
                bad(
                    "search-max-events",
                    format!("a whole number from 1 to {MAX_EVENTS}"),
                )
            }),
        _ => Err(LinkError::at(
            name,
            value,
            Problem::Unknown(LinkKind::Search),
        )),
    }
}

impl SearchSpec {
    /// The lab fragment (without `#`) that opens the search section with these settings.
    pub fn fragment(&self) -> String {
        let mut parts = vec![format!("lab&search={}", self.scenario)];
        if let FencingChoice::Set(fencing) = self.fencing {
            parts.push(format!("search-fencing={}", fencing_word(fencing)));
        }
        if let Some(invariant) = self.invariant {
            parts.push(format!("search-invariant={}", invariant.id()));
        }
        let kinds: Vec<&str> = self.kinds.iter().map(|kind| kind.id()).collect();
        parts.push(format!("search-faults={}", self.faults));
        parts.push(format!("search-kinds={}", kinds.join(",")));
        parts.push(format!("search-max-events={}", self.max_events));
        params::join(&parts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_through_the_fragment() {
        let spec = SearchSpec {
            scenario: "s2-gc-pause-fenced",
            fencing: FencingChoice::Set(Fencing::Off),
            invariant: Some(Invariant::NoLostUpdate),
            faults: 2,
            kinds: vec![FaultKind::Pauses, FaultKind::MessageDelays],
            max_events: 60,
        };
        let link = parse(&format!("#{}", spec.fragment()));
        assert_eq!(
            link,
            SearchLink {
                spec,
                named: true,
                problems: Vec::new()
            }
        );
        assert!(!parse("#lab&backend=sql-row&runs=10").named);
        // The lab leaves the search's parameters to the search.
        let fragment = SearchSpec::default().fragment();
        let route = crate::link::route::Route::parse(&format!("#{fragment}&runs=10"));
        assert!(
            matches!(&route, Some(crate::link::route::Route::Lab(lab)) if lab.problems.is_empty() && lab.spec.runs.0 == 10),
            "{route:?}"
        );
    }

    #[test]
    fn a_bad_parameter_is_named_and_the_good_ones_are_kept() {
        let link = parse(
            "lab&search=nope&search-faults=9&search-kinds=pauses,floods&search-invariant=one_lease&search-colour=red",
        );
        assert_eq!(link.spec.invariant, Some(Invariant::OneLease));
        assert_eq!(link.spec.scenario, SearchSpec::default().scenario);
        let said: Vec<String> = link.problems.iter().map(ToString::to_string).collect();
        assert_eq!(
            said,
            vec![
                "`search=nope`: not a built-in scenario",
                "`search-faults=9`: a whole number from 0 to 4",
                "`search-kinds=pauses,floods`: a comma-separated list of pauses, partitions, clock-jumps, message-delays",
                "`search-…=search-colour`: the search has no such setting",
            ]
        );
    }
}
