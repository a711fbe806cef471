//! How the material reads, checked natively: one idea per lesson step (a short main text, the
//! asides under "Go deeper"), every change of scene announced, every lesson closed by a recap,
//! every question's "See it" at an event that occurs, every card with a 30-second answer. What
//! the texts claim about a run is `claims`' business, not this module's.

use super::{Content, ContentError, Lesson};

/// The most words a step's main text may have (about 35 is the aim).
pub const MAX_STEP_WORDS: usize = 45;
/// The most words of a scene banner: a sentence, not a paragraph.
pub const MAX_SCENE_WORDS: usize = 25;
/// The most words of a card's 30-second answer.
pub const MAX_SHORT_WORDS: usize = 60;
/// How many points a lesson's recap has.
pub const RECAP_POINTS: std::ops::RangeInclusive<usize> = 3..=4;

/// The words of `text`, as a reader counts them.
pub fn words(text: &str) -> usize {
    text.split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count()
}

/// Every problem of flow in `content`; `trace_len` gives how many events a built-in scenario's
/// run has (`None`: it does not run).
pub fn check(
    content: &Content,
    trace_len: &mut dyn FnMut(&str) -> Option<usize>,
) -> Vec<ContentError> {
    let mut errors = Vec::new();
    for (i, lesson) in content.lessons.iter().enumerate() {
        lesson_flow(
            &format!("lessons.json lessons[{i}] ({})", lesson.id),
            lesson,
            &mut errors,
        );
    }
    for (i, q) in content.questions.iter().enumerate() {
        let place = format!("questions.json questions[{i}] ({})", q.id);
        match (q.scenario.as_deref(), q.moment) {
            (Some(_), None) => errors.push(ContentError::new(
                place,
                "a question with a scenario names its `moment`, the event that shows the answer",
            )),
            (None, Some(_)) => errors.push(ContentError::new(
                place,
                "a `moment` needs the `scenario` it is in",
            )),
            (Some(scenario), Some(moment)) => match trace_len(scenario) {
                Some(len) if moment < len => {}
                Some(len) => errors.push(ContentError::new(
                    format!("{place}.moment"),
                    format!("event {moment} does not occur: `{scenario}` has {len} events"),
                )),
                // `check` reports a scenario that does not run.
                None => {}
            },
            (None, None) => {}
        }
    }
    for (i, card) in content.cards.iter().enumerate() {
        let n = words(&card.short);
        if n == 0 || n > MAX_SHORT_WORDS {
            errors.push(ContentError::new(
                format!("cards.json cards[{i}] ({}).short", card.id),
                format!("{n} words; the 30-second answer has 1 to {MAX_SHORT_WORDS}"),
            ));
        }
    }
    errors
}

/// A lesson's steps: short, each change of scene announced (and no banner where nothing
/// changes), and a recap at the end.
fn lesson_flow(place: &str, lesson: &Lesson, errors: &mut Vec<ContentError>) {
    for (i, step) in lesson.steps.iter().enumerate() {
        let here = format!("{place}.steps[{i}]");
        let n = words(&step.text);
        if n > MAX_STEP_WORDS {
            errors.push(ContentError::new(
                format!("{here}.text"),
                format!(
                    "{n} words; one idea a step, at most {MAX_STEP_WORDS}: move asides to `deeper`"
                ),
            ));
        }
        match (lesson.changes_scene(i), step.scene.as_deref()) {
            (true, None) => errors.push(ContentError::new(
                here,
                format!(
                    "the step opens another scene (`{}`) and does not say what changed: add `scene`",
                    lesson.scenario_of(i)
                ),
            )),
            (false, Some(_)) => errors.push(ContentError::new(
                format!("{here}.scene"),
                "the scene does not change here: a banner would announce nothing",
            )),
            (true, Some(scene)) if words(scene) > MAX_SCENE_WORDS => {
                errors.push(ContentError::new(
                    format!("{here}.scene"),
                    format!("{} words; a scene banner has at most {MAX_SCENE_WORDS}", words(scene)),
                ));
            }
            _ => {}
        }
    }
    if !RECAP_POINTS.contains(&lesson.recap.len()) {
        errors.push(ContentError::new(
            format!("{place}.recap"),
            format!("{} points; a recap has 3 or 4", lesson.recap.len()),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content() -> Content {
        Content::load().unwrap_or_else(|e| panic!("{e}"))
    }

    fn problems(content: &Content) -> Vec<String> {
        check(content, &mut |_| Some(50))
            .into_iter()
            .map(|e| e.to_string())
            .collect()
    }

    #[test]
    fn words_are_counted_as_a_reader_counts_them() {
        assert_eq!(words("At 1007 ms — client-a writes."), 5);
        assert_eq!(words(""), 0);
    }

    #[test]
    fn a_long_step_an_unannounced_scene_and_a_missing_recap_are_caught() {
        let mut broken = content();
        let lesson = broken
            .lessons
            .iter_mut()
            .find(|l| l.steps.iter().skip(1).any(|s| s.scene.is_some()))
            .expect("some lesson changes scene");
        lesson.steps[0].text = "word ".repeat(MAX_STEP_WORDS + 1);
        let changing = (1..lesson.steps.len())
            .find(|i| lesson.changes_scene(*i))
            .expect("a change");
        lesson.steps[changing].scene = None;
        lesson.recap.truncate(2);
        let found = problems(&broken);
        for expected in [
            "46 words; one idea a step",
            "does not say what changed",
            "2 points; a recap has 3 or 4",
        ] {
            assert!(
                found.iter().any(|p| p.contains(expected)),
                "`{expected}` in {found:?}"
            );
        }
    }

    #[test]
    fn a_banner_where_nothing_changes_is_caught() {
        let mut broken = content();
        broken.lessons[0].steps[1].scene = Some("Nothing changed.".to_owned());
        assert!(
            problems(&broken)
                .iter()
                .any(|p| p.contains("a banner would announce nothing"))
        );
    }

    #[test]
    fn a_question_moment_outside_its_run_and_a_long_short_answer_are_caught() {
        let mut broken = content();
        let q = broken
            .questions
            .iter_mut()
            .find(|q| q.scenario.is_some())
            .expect("a question shows a scenario");
        q.moment = Some(50);
        broken.cards[0].short = "word ".repeat(MAX_SHORT_WORDS + 1);
        let found = problems(&broken);
        assert!(
            found.iter().any(|p| p.contains("event 50 does not occur")),
            "{found:?}"
        );
        assert!(
            found
                .iter()
                .any(|p| p.contains("61 words; the 30-second answer")),
            "{found:?}"
        );
        let mut broken = content();
        if let Some(q) = broken.questions.iter_mut().find(|q| q.scenario.is_some()) {
            q.moment = None;
        }
        assert!(
            problems(&broken)
                .iter()
                .any(|p| p.contains("names its `moment`"))
        );
    }
}
