//! The guided material — lessons, the knowledge check, the interview deck and the decision
//! guide — as data (`content/*.json`, format in `docs/content-format.md`). The app fetches the
//! files when a page that needs them first opens (`crate::library`); the native tests embed them.
//!
//! [`Content::parse`] reads the files; [`check`] validates them against the simulation: every
//! reference resolves, every lesson step names an event that really occurs in its scenario's
//! trace, every "predict" answer is what the simulation does. Native tests run the check, so a
//! lesson cannot drift from the scenarios it walks. Nothing here touches the browser.

// The checks run natively, in the tests: the app only reads the material.
#[cfg(test)]
pub mod check;
#[cfg(test)]
pub mod citations;
#[cfg(test)]
pub mod claims;
#[cfg(test)]
pub mod flow;
#[cfg(test)]
pub mod retries;
#[cfg(test)]
pub mod shown;
#[cfg(test)]
pub mod wording;

#[cfg(test)]
pub use check::check;

pub mod practice;

use lockstep_sim::scenario::sources::Citation;
use serde::Deserialize;
use std::fmt;

/// One problem in the content: the file and place, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentError {
    pub place: String,
    pub problem: String,
}

impl ContentError {
    pub fn new(place: impl Into<String>, problem: impl Into<String>) -> ContentError {
        ContentError {
            place: place.into(),
            problem: problem.into(),
        }
    }
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.problem)
    }
}

/// The content format this build reads.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lessons {
    pub format: u32,
    pub lessons: Vec<Lesson>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    pub id: String,
    pub title: String,
    pub summary: String,
    /// The built-in scenario its steps play, unless a step names another.
    pub scenario: String,
    pub steps: Vec<Step>,
    /// What the lesson showed, 3–4 short points, on its last step.
    pub recap: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    #[serde(default)]
    pub scenario: Option<String>,
    /// The trace index of the event this step shows; the playground stands just after it.
    pub event: usize,
    /// That event's kind, checked against the trace.
    pub kind: String,
    /// The one idea of the step, at most 45 words (checked natively).
    pub text: String,
    /// The asides, folded under "Go deeper"; read against the run like `text`.
    #[serde(default)]
    pub deeper: Option<String>,
    /// What changed since the previous step and why: required when the step opens another
    /// scenario or comparison than the one before (`flow` checks it).
    #[serde(default)]
    pub scene: Option<String>,
    #[serde(default)]
    pub predict: Option<Predict>,
    #[serde(default)]
    pub break_it: Option<String>,
    /// What the playground compares this step's run with, as a link's `compare=` says it: `1`
    /// for fencing switched, a lock service's id (`consensus`), or another built-in scenario's id
    /// (its pair: the same seed, fencing and interventions). `None`: as it was.
    #[serde(default)]
    pub compare: Option<String>,
    /// The public sources of the facts this step states (none for a step that only narrates).
    #[serde(default)]
    pub sources: Vec<Citation>,
    /// The same moment played against a real server and recorded: a link to it.
    #[serde(default)]
    pub real_run: Option<RealRunLink>,
}

/// A lesson step's link to a recorded real run (`recorded::catalogue`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RealRunLink {
    /// The recording's id, as in `#real=<id>`.
    pub id: String,
    /// The link's words.
    pub text: String,
}

impl Lesson {
    /// What step `index` opens that the step before did not: another scenario or another
    /// comparison (`None` on the first step, which opens the lesson's scene).
    pub fn changes_scene(&self, index: usize) -> bool {
        let Some(before) = index.checked_sub(1) else {
            return false;
        };
        let compare = |i: usize| self.steps.get(i).and_then(|s| s.compare.as_deref());
        self.scenario_of(before) != self.scenario_of(index) || compare(before) != compare(index)
    }

    /// The scenario step `index` plays.
    pub fn scenario_of(&self, index: usize) -> &str {
        self.steps
            .get(index)
            .and_then(|s| s.scenario.as_deref())
            .unwrap_or(&self.scenario)
    }
}

/// A question asked before a step's event is shown; the event is the reveal.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Predict {
    pub question: String,
    pub choices: Vec<Choice>,
    pub answer: usize,
    pub why: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    pub text: String,
    /// The step's event is of this kind.
    #[serde(default)]
    pub kind: Option<String>,
    /// After the step's event, the lock service grants the lock to this client (`nobody`).
    #[serde(default)]
    pub holder: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Questions {
    pub format: u32,
    pub questions: Vec<Question>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub id: String,
    pub question: String,
    pub choices: Vec<String>,
    pub answer: usize,
    pub explanation: String,
    /// A built-in scenario that shows the answer; none when no scenario does (a fact about a
    /// real system the simulation does not model).
    #[serde(default)]
    pub scenario: Option<String>,
    /// The trace index of the event in `scenario`'s run that shows the answer: "See it" opens
    /// the playground just after it (required with `scenario`).
    #[serde(default)]
    pub moment: Option<usize>,
    #[serde(default)]
    pub lesson: Option<String>,
    /// The public sources of the explanation.
    #[serde(default)]
    pub sources: Vec<Citation>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cards {
    pub format: u32,
    pub cards: Vec<Card>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub id: String,
    pub question: String,
    /// The 30-second answer, at most 60 words (checked natively).
    pub short: String,
    pub strong_answer: Vec<String>,
    pub follow_up: String,
    pub scenario: String,
    /// The public sources of the strong answer.
    #[serde(default)]
    pub sources: Vec<Citation>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Guide {
    pub format: u32,
    pub question: String,
    pub answers: Vec<GuideAnswer>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// A lock is enough: two holders cost time, not correctness.
    Efficiency,
    /// The resource itself must check.
    Correctness,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuideAnswer {
    pub id: String,
    pub consequence: String,
    pub verdict: Verdict,
    /// What to do, in a sentence or two: the answer first, as a lesson's step gives it.
    pub recommendation: String,
    /// Why, and what the recommendation does not cover: folded under "Go deeper".
    pub deeper: String,
    pub lesson: String,
    pub scenario: String,
    /// The public sources of the recommendation.
    #[serde(default)]
    pub sources: Vec<Citation>,
}

/// All the guided material.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Content {
    pub lessons: Vec<Lesson>,
    pub questions: Vec<Question>,
    pub cards: Vec<Card>,
    pub guide: Guide,
}

#[cfg(test)]
const LESSONS: &str = include_str!("../../../../content/lessons.json");
#[cfg(test)]
const QUESTIONS: &str = include_str!("../../../../content/questions.json");
#[cfg(test)]
const CARDS: &str = include_str!("../../../../content/cards.json");
#[cfg(test)]
const GUIDE: &str = include_str!("../../../../content/guide.json");

impl Content {
    /// The files of the guided material, in the order [`Content::parse`] takes their texts.
    pub const FILES: [&'static str; 4] =
        ["lessons.json", "questions.json", "cards.json", "guide.json"];

    /// The material from its files' texts (in the order of [`Content::FILES`]), or which file
    /// cannot be read and why.
    pub fn parse([lessons, questions, cards, guide]: [&str; 4]) -> Result<Content, ContentError> {
        let lessons: Lessons = parse("lessons.json", lessons)?;
        let questions: Questions = parse("questions.json", questions)?;
        let cards: Cards = parse("cards.json", cards)?;
        let guide: Guide = parse("guide.json", guide)?;
        for (file, format) in [
            ("lessons.json", lessons.format),
            ("questions.json", questions.format),
            ("cards.json", cards.format),
            ("guide.json", guide.format),
        ] {
            if format != FORMAT_VERSION {
                return Err(ContentError::new(
                    file,
                    format!("format {format}; this build reads {FORMAT_VERSION}"),
                ));
            }
        }
        Ok(Content {
            lessons: lessons.lessons,
            questions: questions.questions,
            cards: cards.cards,
            guide,
        })
    }

    /// The material as the repository holds it (native tests).
    #[cfg(test)]
    pub fn load() -> Result<Content, ContentError> {
        Content::parse([LESSONS, QUESTIONS, CARDS, GUIDE])
    }

    pub fn lesson(&self, id: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|l| l.id == id)
    }

    /// The lesson after `id`, in file order (`None` after the last).
    pub fn next_lesson(&self, id: &str) -> Option<&Lesson> {
        let at = self.lessons.iter().position(|l| l.id == id)?;
        self.lessons.get(at + 1)
    }
}

/// Every product text shipped as data, by file: the guided material, the scenario catalogue and
/// the bibliography (checked for words that point at internal notes).
#[cfg(test)]
pub fn product_texts() -> Vec<(&'static str, &'static str)> {
    use lockstep_sim::{scenario::catalogue, scenario::sources};
    let mut texts = vec![
        ("lessons.json", LESSONS),
        ("questions.json", QUESTIONS),
        ("cards.json", CARDS),
        ("guide.json", GUIDE),
        ("sources.json", sources::EMBEDDED_JSON),
    ];
    texts.extend(catalogue::BUILT_IN.iter().map(|b| (b.id, b.json)));
    texts
}

fn parse<T: for<'de> Deserialize<'de>>(file: &'static str, text: &str) -> Result<T, ContentError> {
    serde_json::from_str(text).map_err(|e| ContentError::new(file, e.to_string()))
}
