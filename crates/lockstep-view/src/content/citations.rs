//! Checks that every claim Lockstep teaches is sourced: every scenario, interview card,
//! question and guide answer cites at least one public source, every lesson step that names a source cites one,
//! every citation resolves to a bibliography entry with a locator, every entry is cited at
//! least once (no dead entries), and no product text points at our internal notes.
//!
//! The bibliography itself lives in `lockstep-sim` (`lockstep_sim::sources`), since scenario
//! files cite it too; this module only judges the guided material and the catalogue against
//! it. It must not resolve citations for display (that is `lockstep_sim::scenario::sources::cite`).

use super::Content;
use super::ContentError;
use lockstep_sim::Scenario;
use lockstep_sim::scenario::sources::{Bibliography, Citation};
use std::collections::BTreeSet;

/// Words that point at internal notes no reader can open; product text must not contain them.
/// Spelled in parts so that a search of the sources for the phrase finds real mentions only.
const INTERNAL_MARKERS: [&str; 4] = [
    concat!("domain", " facts"),
    concat!("domain", "-facts"),
    concat!("domain", " fact"),
    "[S]",
];

/// Names of sources: a lesson step whose words name one of them states a sourced fact and must
/// cite it.
const SOURCE_NAMES: [&str; 21] = [
    "Kleppmann",
    "antirez",
    "Junqueira",
    "Redis docs",
    "Chubby",
    "etcd",
    "Jepsen",
    "ZooKeeper",
    "Curator",
    "Consul",
    "Hazelcast",
    "Redisson",
    "Stripe",
    "DDIA",
    "HBase",
    "GitHub",
    "Kafka",
    "Raft",
    "Knossos",
    "client-go",
    "PostgreSQL",
];

/// Every citation problem in the guided material and the scenarios, each with its place.
/// `texts` are the raw product files (name, contents) to search for internal markers.
pub fn check(
    content: &Content,
    scenarios: &[Scenario],
    bibliography: &Bibliography,
    texts: &[(&str, &str)],
) -> Vec<ContentError> {
    let mut errors = Vec::new();
    let mut cited = BTreeSet::new();
    let mut judge = |place: String, citations: &[Citation], required: bool| {
        if required && citations.is_empty() {
            errors.push(ContentError::new(
                place.clone(),
                "cites no source: add `sources` with at least one citation",
            ));
        }
        for (i, citation) in citations.iter().enumerate() {
            match bibliography.resolve(citation) {
                Ok(source) => {
                    cited.insert(source.id.clone());
                }
                Err(e) => errors.push(ContentError::new(
                    format!("{place} sources[{i}]"),
                    e.to_string(),
                )),
            }
        }
    };
    for scenario in scenarios {
        let place = format!("scenarios/{}.json", scenario.id);
        judge(place, &scenario.citations(), true);
    }
    for (i, card) in content.cards.iter().enumerate() {
        judge(
            format!("cards.json cards[{i}] ({})", card.id),
            &card.sources,
            true,
        );
    }
    for (i, q) in content.questions.iter().enumerate() {
        judge(
            format!("questions.json questions[{i}] ({})", q.id),
            &q.sources,
            true,
        );
    }
    for (i, answer) in content.guide.answers.iter().enumerate() {
        let place = format!("guide.json answers[{i}] ({})", answer.id);
        judge(place, &answer.sources, true);
    }
    for (l, lesson) in content.lessons.iter().enumerate() {
        let place = format!("lessons.json lessons[{l}] ({})", lesson.id);
        if lesson.steps.iter().all(|s| s.sources.is_empty()) {
            judge(place.clone(), &[], true);
        }
        for (s, step) in lesson.steps.iter().enumerate() {
            let names_a_source = step_words(step)
                .iter()
                .any(|words| SOURCE_NAMES.iter().any(|name| names(words, name)));
            judge(format!("{place} steps[{s}]"), &step.sources, names_a_source);
        }
    }
    for source in &bibliography.sources {
        if !cited.contains(&source.id) {
            errors.push(ContentError::new(
                format!("sources.json ({})", source.id),
                "nothing cites this entry: cite it or remove it",
            ));
        }
    }
    errors.extend(internal_markers(texts));
    errors
}

/// The product files that mention internal notes no reader can open.
fn internal_markers(texts: &[(&str, &str)]) -> Vec<ContentError> {
    let mut errors = Vec::new();
    for (file, text) in texts {
        for marker in INTERNAL_MARKERS {
            if text.to_lowercase().contains(&marker.to_lowercase()) {
                errors.push(ContentError::new(
                    (*file).to_owned(),
                    format!("mentions \"{marker}\", internal notes no reader can open: cite the public source"),
                ));
            }
        }
    }
    errors
}

/// Everything a step says: its text, its question, choices and answer, its "break it" hint.
fn step_words(step: &super::Step) -> Vec<&str> {
    let mut words = vec![step.text.as_str()];
    words.extend(step.deeper.as_deref());
    words.extend(step.scene.as_deref());
    if let Some(predict) = &step.predict {
        words.push(&predict.question);
        words.push(&predict.why);
        words.extend(predict.choices.iter().map(|c| c.text.as_str()));
    }
    words.extend(step.break_it.as_deref());
    words
}

/// Whether `text` names `name` as a word: "etcd" counts, the replica name "etcd-1" does not.
fn names(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        let word_char = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
        !before.is_some_and(word_char) && !after.is_some_and(word_char)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::scenario::catalogue;

    fn catalogue() -> Vec<Scenario> {
        catalogue::BUILT_IN
            .iter()
            .map(|b| b.load().unwrap_or_else(|e| panic!("{}: {e}", b.id)))
            .collect()
    }

    fn embedded() -> Bibliography {
        Bibliography::embedded()
            .unwrap_or_else(|e| panic!("{e}"))
            .clone()
    }

    fn content() -> Content {
        Content::load().unwrap_or_else(|e| panic!("{e}"))
    }

    fn problems(
        content: &Content,
        bibliography: &Bibliography,
        texts: &[(&str, &str)],
    ) -> Vec<String> {
        check(content, &catalogue(), bibliography, texts)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn everything_shipped_is_sourced_and_every_entry_is_cited() {
        let report = problems(&content(), &embedded(), &super::super::product_texts());
        assert!(report.is_empty(), "{}", report.join("\n"));
    }

    #[test]
    fn a_dangling_id_is_caught_with_its_place() {
        let mut broken = content();
        broken.cards[0].sources[0].source = "no-such-source".to_owned();
        let report = problems(&broken, &embedded(), &[]);
        assert!(
            report.iter().any(|p| p
                .starts_with("cards.json cards[0] (design-a-lock) sources[0]: ")
                && p.contains("no source \"no-such-source\"")),
            "{report:?}"
        );
    }

    #[test]
    fn an_uncited_card_question_or_named_fact_is_caught() {
        let mut broken = content();
        broken.questions[1].sources.clear();
        broken.cards[2].sources.clear();
        broken.guide.answers[0].sources.clear();
        let step = &mut broken.lessons[0].steps[1];
        step.sources.clear();
        step.text = "As Kleppmann notes, the lease is a belief.".to_owned();
        let report = problems(&broken, &embedded(), &[]);
        for place in [
            "questions.json questions[1]",
            "cards.json cards[2]",
            "guide.json answers[0]",
            "lessons.json lessons[0] (not-a-mutex) steps[1]",
        ] {
            assert!(
                report
                    .iter()
                    .any(|p| p.starts_with(place) && p.contains("cites no source")),
                "{place}: {report:?}"
            );
        }
    }

    #[test]
    fn a_dead_entry_and_an_internal_marker_are_caught() {
        let mut bibliography = embedded();
        let mut unused = bibliography.sources[0].clone();
        unused.id = "never-cited".to_owned();
        bibliography.sources.push(unused);
        let report = problems(
            &content(),
            &bibliography,
            &[
                ("questions.json", concat!("as the domain", " facts say")),
                ("s1.json", "a summary [S]"),
            ],
        );
        assert!(
            report
                .iter()
                .any(|p| p.starts_with("sources.json (never-cited)")),
            "{report:?}"
        );
        assert!(
            report
                .iter()
                .any(|p| p.starts_with(concat!("questions.json: mentions \"domain", " facts\"")))
        );
        assert!(
            report
                .iter()
                .any(|p| p.starts_with("s1.json: mentions \"[S]\""))
        );
    }

    #[test]
    fn replica_names_are_not_source_names() {
        assert!(names("etcd 3.4.3 had a bug", "etcd"));
        assert!(!names("etcd-1 crashes", "etcd"));
        assert!(names("(Kleppmann)", "Kleppmann"));
    }
}
