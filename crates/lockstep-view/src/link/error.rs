//! The one error every link reports: the parameter, its value as written, and what is wrong
//! with it. Each kind of link says its problems in its own words where the page shows them, so
//! the words are chosen by [`Problem`]; the parameter and the value are always there to read.
//!
//! What this module must not do: read a link, or decide whether a problem stops the reading
//! (the playground's and the embed's links refuse; the lab's keeps what it can).

use lockstep_sim::analysis::chaos::{ChaosSettings, SettingsError};
use std::fmt;

/// What is wrong with a link, at which parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError {
    /// The parameter's name as written (empty when the problem is the link as a whole).
    pub parameter: String,
    /// Its value as written (empty when it has none).
    pub value: String,
    pub problem: Problem,
}

/// The kind of link a parameter is unknown to: each says what it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    Share,
    Embed,
    Lab,
    Search,
}

/// What is wrong with a parameter, or with the link as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The value cannot be used; the words say why, quoting the value where that helps.
    Bad(String),
    /// The value cannot be used and is set aside; the message quotes it whole (the lab's and
    /// the search's links, which show what they set aside).
    SetAside(String),
    /// This kind of link has no such parameter.
    Unknown(LinkKind),
    /// Given more than once where once is the rule: the link is refused.
    Repeated,
    /// Given more than once: the first one counts.
    RepeatedFirstCounts,
    /// A chaos setting the chaos engine refuses, in its words.
    Setting(SettingsError),
    /// No built-in scenario has the value as its id.
    UnknownScenario,
    /// The built-in scenario the value names has not been loaded.
    NotLoaded,
    /// A playground link that names no scenario (`s=`, `scenario=` or `chaos=`).
    NoScenario,
    /// An embed's link that names no scenario, no lesson and no recorded run.
    NothingToShow,
    /// A parameter that a lesson embed does not take (the lesson chooses its own moments).
    NotForALesson,
    /// A parameter that a recorded run's embed does not take (it is shown whole).
    NotForARecording,
    /// `from=` (the parameter) after `to=`.
    FromAfterTo { to: usize },
    /// `at=` (the parameter) outside `from..=to`.
    AtOutside { from: usize, to: usize },
    /// No page of the site lives at the path (the value; see [`super::path`]).
    UnknownPath,
    /// A parameter of the hash that would name the page, or its scenario, a second time: the
    /// page's path (`path`) names it already (see [`super::path::address`]).
    NamedByPath { path: String },
}

impl LinkError {
    /// A problem at `parameter`, whose value is `value`.
    pub fn at(parameter: &str, value: &str, problem: Problem) -> LinkError {
        LinkError {
            parameter: parameter.to_owned(),
            value: value.to_owned(),
            problem,
        }
    }

    /// `parameter`'s value cannot be used, for `reason`.
    pub fn bad(parameter: &str, value: &str, reason: String) -> LinkError {
        LinkError::at(parameter, value, Problem::Bad(reason))
    }

    /// A problem with the link as a whole.
    pub fn whole(problem: Problem) -> LinkError {
        LinkError::at("", "", problem)
    }
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let LinkError {
            parameter: name,
            value,
            problem,
        } = self;
        match problem {
            Problem::Bad(reason) => write!(f, "`{name}=`: {reason}"),
            Problem::SetAside(reason) => write!(f, "`{name}={value}`: {reason}"),
            Problem::Unknown(kind) => f.write_str(&unknown(*kind, name)),
            Problem::Repeated => write!(f, "`{name}=` is given more than once"),
            Problem::RepeatedFirstCounts => {
                write!(f, "`{name}` is given more than once; the first one counts")
            }
            Problem::Setting(error) => write!(f, "{error}"),
            Problem::UnknownScenario => {
                write!(
                    f,
                    "`{name}={value}`: there is no built-in scenario with that id"
                )
            }
            Problem::NotLoaded => write!(f, "`{name}={value}`: that scenario is not loaded yet"),
            Problem::NoScenario => {
                f.write_str("it names no scenario (`s=`, `scenario=` or `chaos=`)")
            }
            Problem::NothingToShow => f.write_str(
                "it names no scenario (`s=` or `scenario=`), no lesson (`learn=`) and no \
                     recorded run (`real=`)",
            ),
            Problem::NotForALesson => write!(
                f,
                "`{name}=` does not apply to a lesson (`learn=`): the lesson chooses its own \
                 moments"
            ),
            Problem::NotForARecording => write!(
                f,
                "`{name}=` does not apply to a recorded run (`real=`): it is shown whole, beside \
                 its simulation"
            ),
            Problem::FromAfterTo { to } => write!(
                f,
                "`from={value}` is after `to={to}`: the excerpt must start before it ends"
            ),
            Problem::AtOutside { from, to } => write!(
                f,
                "`at={value}` is outside the excerpt `from={from}` to `to={to}`"
            ),
            Problem::UnknownPath => {
                write!(f, "`{value}`: no page of Lockstep lives at this path")
            }
            Problem::NamedByPath { path } => write!(
                f,
                "`{}`: the path `{path}` already says which page this is; after a page's path \
                 the hash carries only that page's other parameters",
                written(name, value)
            ),
        }
    }
}

/// A parameter as it was written: `name=value`, or `name` alone when it has no value.
fn written(name: &str, value: &str) -> String {
    if value.is_empty() {
        name.to_owned()
    } else {
        format!("{name}={value}")
    }
}

/// What a kind of link says of a parameter `name` it does not read.
fn unknown(kind: LinkKind, name: &str) -> String {
    match kind {
        LinkKind::Share => format!("`{name}`: this parameter means nothing to Lockstep"),
        LinkKind::Embed => format!("`{name}`: this parameter means nothing to a Lockstep embed"),
        LinkKind::Lab => format!(
            "`{name}`: the chaos lab has no such setting (it reads {}, runs and seed)",
            ChaosSettings::KEYS.join(", ")
        ),
        // The search reads every `search-…` parameter: the unknown one is such a value.
        LinkKind::Search => format!("`search-…={name}`: the search has no such setting"),
    }
}
