//! Checks the guided material against the simulation: references resolve, lesson steps name
//! events that occur, predictions are right, every claim cites a public source
//! ([`super::citations`]). Every problem is reported, each with where it is.

use super::shown::Shown;
use super::{Choice, Content, ContentError, Lesson, Predict, claims, retries};
use crate::run::Run;
use lockstep_sim::scenario::catalogue;
use lockstep_sim::scenario::sources::Bibliography;
use std::collections::BTreeMap;

/// Every problem in `content`; empty when it is sound.
pub fn check(content: &Content) -> Vec<ContentError> {
    let mut errors = Vec::new();
    let mut runs = Runs::default();
    let lesson_ids: Vec<&str> = content.lessons.iter().map(|l| l.id.as_str()).collect();
    let mut error = |place: String, problem: String| errors.push(ContentError::new(place, problem));
    unique_slugs("lessons.json lessons", &lesson_ids, &mut error);
    for (i, lesson) in content.lessons.iter().enumerate() {
        check_lesson(
            &format!("lessons.json lessons[{i}] ({})", lesson.id),
            lesson,
            &mut runs,
            &mut error,
        );
    }
    check_questions(content, &lesson_ids, &mut runs, &mut error);
    check_cards_and_guide(content, &lesson_ids, &mut error);
    check_scenarios(&mut runs, &mut error);
    errors.extend(super::flow::check(content, &mut |id| {
        runs.get(id).map(|run| run.sim.trace().len())
    }));
    let scenarios: Vec<_> = catalogue::BUILT_IN
        .iter()
        .filter_map(|b| b.load().ok())
        .collect();
    match Bibliography::embedded() {
        Ok(bibliography) => errors.extend(super::citations::check(
            content,
            &scenarios,
            bibliography,
            &super::product_texts(),
        )),
        Err(e) => errors.push(ContentError::new("sources.json", e.to_string())),
    }
    errors.extend(super::wording::check(&super::product_texts()));
    errors
}

fn check_questions(
    content: &Content,
    lesson_ids: &[&str],
    runs: &mut Runs,
    error: &mut impl FnMut(String, String),
) {
    let question_ids: Vec<&str> = content.questions.iter().map(|q| q.id.as_str()).collect();
    unique_slugs("questions.json questions", &question_ids, error);
    if content.questions.len() < 30 {
        error(
            "questions.json".to_owned(),
            format!(
                "{} questions; the knowledge check needs at least 30",
                content.questions.len()
            ),
        );
    }
    for (i, q) in content.questions.iter().enumerate() {
        let place = format!("questions.json questions[{i}] ({})", q.id);
        check_choices(&place, q.choices.len(), q.answer, 5, error);
        reference(&place, "scenario", q.scenario.as_deref(), &[], error);
        if let Some(run) = q.scenario.as_deref().and_then(|id| runs.get(id)) {
            check_explanation(&place, q, run, error);
        }
        reference(&place, "lesson", q.lesson.as_deref(), lesson_ids, error);
    }
}

/// The sentences of an explanation that tell what "the playground" shows are read against that
/// run; the rest (and the question) may reason about any numbers.
fn check_explanation(
    place: &str,
    q: &super::Question,
    run: &Run,
    error: &mut impl FnMut(String, String),
) {
    let end = Shown::Through(run.sim.trace().len().saturating_sub(1));
    let about_the_run = q
        .explanation
        .split_inclusive(". ")
        .filter(|sentence| sentence.contains("playground"));
    for sentence in about_the_run {
        for problem in claims::unsupported(sentence, run, end, claims::HolderAt::AnyMoment) {
            error(format!("{place}.explanation"), problem);
        }
        if let Some(scenario) = q.scenario.as_deref().and_then(load) {
            for problem in retries::unsupported(sentence, &scenario, &q.sources) {
                error(format!("{place}.explanation"), problem);
            }
        }
    }
}

fn check_cards_and_guide(
    content: &Content,
    lesson_ids: &[&str],
    error: &mut impl FnMut(String, String),
) {
    let card_ids: Vec<&str> = content.cards.iter().map(|c| c.id.as_str()).collect();
    unique_slugs("cards.json cards", &card_ids, error);
    for (i, card) in content.cards.iter().enumerate() {
        let place = format!("cards.json cards[{i}] ({})", card.id);
        if card.strong_answer.is_empty() {
            error(
                place.clone(),
                "a strong answer needs at least one point".to_owned(),
            );
        }
        reference(&place, "scenario", Some(&card.scenario), &[], error);
    }
    let answer_ids: Vec<&str> = content
        .guide
        .answers
        .iter()
        .map(|a| a.id.as_str())
        .collect();
    unique_slugs("guide.json answers", &answer_ids, error);
    for (i, answer) in content.guide.answers.iter().enumerate() {
        let place = format!("guide.json answers[{i}] ({})", answer.id);
        reference(&place, "scenario", Some(&answer.scenario), &[], error);
        reference(&place, "lesson", Some(&answer.lesson), lesson_ids, error);
    }
}

/// Every built-in scenario's title and summary, and its retry policy.
fn check_scenarios(runs: &mut Runs, error: &mut impl FnMut(String, String)) {
    for built_in in catalogue::BUILT_IN {
        let place = format!("scenarios/{}.json", built_in.id);
        match (built_in.load(), runs.get(built_in.id)) {
            (Ok(scenario), Some(run)) => {
                for problem in scenario_texts(&scenario, run) {
                    error(place.clone(), problem);
                }
                for problem in retries::scenario_policy(&scenario) {
                    error(place.clone(), problem);
                }
            }
            _ => error(place, "does not load and run".to_owned()),
        }
    }
}

/// Words that state how a write fares at the resource: an outcome, which the fencing switch and
/// the user's interventions change, so it is computed (`RunOutcome`), never written in a title
/// or summary.
const VERDICT_WORDS: &[&str] = &[
    "accept",
    "accepts",
    "accepted",
    "reject",
    "rejects",
    "rejected",
    "land",
    "lands",
    "landed",
    "overwritten",
    "survive",
    "survives",
    "lost",
];

/// What is wrong with a scenario's title and summary: a verdict of the resource where the user
/// can switch fencing, or a claim its run does not bear out (the summary is read against the
/// whole run).
pub fn scenario_texts(scenario: &lockstep_sim::Scenario, run: &Run) -> Vec<String> {
    let mut problems = Vec::new();
    if scenario.resource.fencing().is_some() {
        for (field, text) in [("title", &scenario.title), ("summary", &scenario.summary)] {
            let verdicts: Vec<&str> = text
                .split(|c: char| !c.is_ascii_alphabetic())
                .filter(|w| VERDICT_WORDS.contains(&w.to_ascii_lowercase().as_str()))
                .collect();
            if !verdicts.is_empty() {
                problems.push(format!(
                    "the {field} states the resource's verdict ({}), which the fencing switch changes: state the setup, the outcome line is computed",
                    verdicts.join(", ")
                ));
            }
        }
    }
    let end = Shown::Through(run.sim.trace().len().saturating_sub(1));
    let cites = scenario.citations();
    for (field, text) in [("title", &scenario.title), ("summary", &scenario.summary)] {
        for problem in claims::unsupported(text, run, end, claims::HolderAt::AnyMoment) {
            problems.push(format!("the {field}: {problem}"));
        }
        for problem in retries::unsupported(text, scenario, &cites) {
            problems.push(format!("the {field}: {problem}"));
        }
    }
    problems
}

/// A built-in scenario's file, parsed.
fn load(id: &str) -> Option<lockstep_sim::Scenario> {
    catalogue::find(id)?.load().ok()
}

/// Each scenario run once, however many steps walk it.
#[derive(Default)]
struct Runs(BTreeMap<String, Option<Run>>);

impl Runs {
    fn get(&mut self, id: &str) -> Option<&Run> {
        self.0
            .entry(id.to_owned())
            .or_insert_with(|| {
                let scenario = catalogue::find(id)?.load().ok()?;
                Run::record(&scenario, scenario.seed, &[]).ok()
            })
            .as_ref()
    }
}

fn check_lesson(
    place: &str,
    lesson: &Lesson,
    runs: &mut Runs,
    error: &mut impl FnMut(String, String),
) {
    if lesson.steps.is_empty() {
        error(
            place.to_owned(),
            "a lesson needs at least one step".to_owned(),
        );
    }
    let mut previous: Option<(&str, usize)> = None;
    for (i, step) in lesson.steps.iter().enumerate() {
        let here = format!("{place}.steps[{i}]");
        let scenario = lesson.scenario_of(i);
        let Some(run) = runs.get(scenario) else {
            error(
                here,
                format!("`{scenario}` is not a built-in scenario that runs"),
            );
            continue;
        };
        check_step_event(&here, scenario, step, run, error);
        if let Some((before, event)) = previous
            && before == scenario
            && event >= step.event
        {
            error(
                here.clone(),
                format!(
                    "event {} does not come after the previous step's {event}",
                    step.event
                ),
            );
        }
        previous = Some((scenario, step.event));
        if let Some(compare) = &step.compare {
            check_compare(&here, scenario, compare, error);
        }
        if let Some(link) = &step.real_run {
            match crate::recorded::catalogue::find(&link.id) {
                None => error(
                    format!("{here} real_run"),
                    format!("\"{}\" is not a recorded run the site ships", link.id),
                ),
                Some(recording) if recording.scenario != scenario => error(
                    format!("{here} real_run"),
                    format!(
                        "{} records {}, not this step's {scenario}",
                        link.id, recording.scenario
                    ),
                ),
                Some(_) => {}
            }
        }
        check_step_texts(&here, scenario, step, run, error);
        if let Some(predict) = &step.predict {
            check_predict(&here, predict, run, step.event, error);
        }
    }
}

/// The event a step names occurs in its scenario's run, and is of the kind it says.
fn check_step_event(
    here: &str,
    scenario: &str,
    step: &super::Step,
    run: &Run,
    error: &mut impl FnMut(String, String),
) {
    let trace = run.sim.trace();
    match trace.get(step.event) {
        None => error(
            here.to_owned(),
            format!(
                "event {} does not occur: `{scenario}` has {} events",
                step.event,
                trace.len()
            ),
        ),
        Some(event) if event.happening.kind() != step.kind => error(
            here.to_owned(),
            format!(
                "event {} of `{scenario}` is `{}`, not `{}`",
                step.event,
                event.happening.kind(),
                step.kind
            ),
        ),
        Some(_) => {}
    }
}

/// A step's text and its prediction's are read against the run as far as each is shown.
fn check_step_texts(
    here: &str,
    scenario: &str,
    step: &super::Step,
    run: &Run,
    error: &mut impl FnMut(String, String),
) {
    let texts = [
        ("text", Some(&step.text), Shown::Through(step.event)),
        ("deeper", step.deeper.as_ref(), Shown::Through(step.event)),
        // The banner shows from the moment the step opens, its question still open.
        ("scene", step.scene.as_ref(), Shown::Before(step.event)),
        (
            "predict.question",
            step.predict.as_ref().map(|p| &p.question),
            Shown::Before(step.event),
        ),
        (
            "predict.why",
            step.predict.as_ref().map(|p| &p.why),
            Shown::Through(step.event),
        ),
    ];
    let spec = load(scenario);
    for (field, text, shown) in texts {
        let Some(text) = text else { continue };
        let retry_numbers = spec
            .as_ref()
            .map_or_else(Vec::new, |s| retries::unsupported(text, s, &step.sources));
        for problem in claims::unsupported(text, run, shown, claims::HolderAt::Position)
            .into_iter()
            .chain(retry_numbers)
        {
            error(format!("{here}.{field}"), problem);
        }
    }
}

/// A step's comparison names something the playground can compare this scenario with, and the
/// comparison can be made.
fn check_compare(
    place: &str,
    scenario_id: &str,
    compare: &str,
    error: &mut impl FnMut(String, String),
) {
    let here = format!("{place}.compare");
    let compare = match crate::link::share::compare_of(compare) {
        Ok(compare) => compare,
        Err(e) => return error(here, e.to_string()),
    };
    let Some(scenario) = catalogue::find(scenario_id).and_then(|b| b.load().ok()) else {
        return;
    };
    match compare {
        crate::state::Compare::Off => {}
        crate::state::Compare::Fencing => {
            if scenario.resource.fencing().is_none() {
                error(
                    here,
                    format!("`{scenario_id}`'s resource has no fencing to switch"),
                );
            }
        }
        crate::state::Compare::Scenario(_) => {
            let moment = crate::state::Moment {
                origin: crate::state::Origin::Custom,
                seed: scenario.seed,
                scenario: scenario.clone(),
                log: Vec::new(),
                position: None,
                compare: match crate::state::Comparison::of(compare, &crate::test_files::loaded) {
                    Ok(comparison) => comparison,
                    Err(id) => return error(here, format!("`{id}` is not a built-in scenario")),
                },
            };
            match crate::state::Playground::restore(moment) {
                Ok(playground) if playground.twin().is_some() => {}
                Ok(playground) => error(
                    here,
                    format!(
                        "the comparison cannot be made: {}",
                        playground.problem().unwrap_or("no twin")
                    ),
                ),
                Err(e) => error(here, format!("`{scenario_id}` cannot run: {e}")),
            }
        }
        crate::state::Compare::Service(service) => {
            let own = lockstep_sim::analysis::against::service_of(&scenario.lock_service);
            if own == service {
                error(
                    here,
                    format!("`{scenario_id}` already runs on {}", own.label()),
                );
            } else if let Err(e) = lockstep_sim::analysis::against::against(&scenario, &[], service)
            {
                error(here, format!("the comparison cannot be made: {e}"));
            }
        }
    }
}

fn check_predict(
    place: &str,
    predict: &Predict,
    run: &Run,
    event: usize,
    error: &mut impl FnMut(String, String),
) {
    check_choices(place, predict.choices.len(), predict.answer, 4, error);
    for (i, choice) in predict.choices.iter().enumerate() {
        let here = format!("{place}.predict.choices[{i}]");
        let after = claim_holds(choice, run, Shown::Through(event));
        let before = claim_holds(choice, run, Shown::Before(event));
        match (after, before) {
            (Err(problem), _) | (_, Err(problem)) => error(here, problem),
            (Ok(holds), _) if holds != (i == predict.answer) => error(
                here,
                if holds {
                    "this wrong choice is what the simulation does".to_owned()
                } else {
                    "the answer is not what the simulation does".to_owned()
                },
            ),
            // The question is asked with the page standing just before the step's event: an
            // answer already true there is shown, not predicted.
            (Ok(true), Ok(true)) if i == predict.answer => error(
                here,
                "the answer is already true just before the step's event, where the question is asked"
                    .to_owned(),
            ),
            _ => {}
        }
    }
}

/// Whether a choice's claim is true of what the page shows at `shown`: a `kind` claim, that
/// the last event shown is of that kind; a `holder` claim, that the lock service grants the lock
/// to that client there (`nobody` before any event).
pub fn claim_holds(choice: &Choice, run: &Run, shown: Shown) -> Result<bool, String> {
    let last = shown.last();
    match (&choice.kind, &choice.holder) {
        (Some(kind), None) => Ok(last
            .and_then(|i| run.sim.trace().get(i))
            .is_some_and(|e| e.happening.kind() == *kind)),
        (None, Some(holder)) => {
            Ok(last.map_or_else(|| "nobody".to_owned(), |i| run.holder_after(i)) == *holder)
        }
        _ => Err("a choice claims exactly one thing: `kind` or `holder`".to_owned()),
    }
}

fn unique_slugs(place: &str, ids: &[&str], error: &mut impl FnMut(String, String)) {
    for (i, id) in ids.iter().enumerate() {
        let slug = !id.is_empty()
            && id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !slug {
            error(
                format!("{place}[{i}]"),
                format!("`{id}` is not a slug (a-z, 0-9, -)"),
            );
        }
        if ids[..i].contains(id) {
            error(
                format!("{place}[{i}]"),
                format!("the id `{id}` is used twice"),
            );
        }
    }
}

/// Checks that `value` names a built-in scenario (`among` empty) or one of `among`.
fn reference(
    place: &str,
    field: &str,
    value: Option<&str>,
    among: &[&str],
    error: &mut impl FnMut(String, String),
) {
    let Some(value) = value else { return };
    let found = if among.is_empty() {
        catalogue::find(value).is_some()
    } else {
        among.contains(&value)
    };
    if !found {
        error(
            place.to_owned(),
            format!("{field} `{value}` does not exist"),
        );
    }
}

/// A question's or a prediction's choices: from 2 to `most` of them, and the answer one of them.
fn check_choices(
    place: &str,
    count: usize,
    answer: usize,
    most: usize,
    error: &mut impl FnMut(String, String),
) {
    if !(2..=most).contains(&count) {
        error(
            place.to_owned(),
            format!("{count} choices; 2 to {most} are allowed"),
        );
    }
    if answer >= count {
        error(
            place.to_owned(),
            format!("answer {answer} is not one of the choices"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content() -> Content {
        Content::load().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_embedded_content_is_sound() {
        let errors = check(&content());
        let report: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert!(report.is_empty(), "{}", report.join("\n"));
    }

    #[test]
    fn a_wrong_event_a_wrong_prediction_and_a_dangling_link_are_caught() {
        let mut broken = content();
        let lesson = &mut broken.lessons[0];
        lesson.steps[0].kind = "no_such_kind".to_owned();
        let errors = check(&broken);
        assert!(
            errors
                .iter()
                .any(|e| e.problem.contains("not `no_such_kind`")),
            "{errors:?}"
        );
        let mut broken = content();
        broken.questions[0].scenario = Some("s99-nothing".to_owned());
        broken.guide.answers[0].lesson = "no-such-lesson".to_owned();
        let errors = check(&broken);
        assert!(
            errors
                .iter()
                .any(|e| e.problem.contains("`s99-nothing` does not exist"))
        );
        assert!(
            errors
                .iter()
                .any(|e| e.problem.contains("`no-such-lesson` does not exist"))
        );
        let mut broken = content();
        let predict = broken
            .lessons
            .iter_mut()
            .flat_map(|l| l.steps.iter_mut())
            .find_map(|s| s.predict.as_mut())
            .expect("some lesson asks for a prediction");
        predict.answer = (predict.answer + 1) % predict.choices.len();
        let errors = check(&broken);
        assert!(
            errors
                .iter()
                .any(|e| e.problem.contains("not what the simulation does")),
            "{errors:?}"
        );
    }

    #[test]
    fn too_few_choices_and_an_answer_outside_them_are_caught_in_questions_and_predictions() {
        let mut broken = content();
        broken.questions[0].choices.truncate(1);
        broken.questions[0].answer = 3;
        let predict = broken
            .lessons
            .iter_mut()
            .flat_map(|l| l.steps.iter_mut())
            .find_map(|s| s.predict.as_mut())
            .expect("some lesson asks for a prediction");
        predict.choices.truncate(1);
        let problems: Vec<String> = check(&broken).into_iter().map(|e| e.problem).collect();
        for expected in [
            "1 choices; 2 to 5 are allowed",
            "answer 3 is not one of the choices",
            "1 choices; 2 to 4 are allowed",
        ] {
            assert!(
                problems.iter().any(|p| p.contains(expected)),
                "`{expected}` missing from {problems:?}"
            );
        }
    }

    #[test]
    fn a_real_run_link_to_no_recording_or_another_scenario_is_caught() {
        let errors_with = |id: &str| {
            let mut broken = content();
            let step = broken
                .lessons
                .iter_mut()
                .find(|l| l.id == "fencing-tokens")
                .and_then(|l| l.steps.iter_mut().find(|s| s.real_run.is_some()))
                .expect("the fencing lesson links a real run");
            if let Some(link) = &mut step.real_run {
                link.id = id.to_owned();
            }
            check(&broken)
        };
        let problems = |id: &str| -> Vec<String> {
            errors_with(id)
                .into_iter()
                .filter(|e| e.place.ends_with("real_run"))
                .map(|e| e.problem)
                .collect()
        };
        assert_eq!(
            problems("s2-gc-pause-fenced.zookeeper"),
            ["\"s2-gc-pause-fenced.zookeeper\" is not a recorded run the site ships"]
        );
        assert_eq!(
            problems("s1-gc-pause-unfenced.postgres"),
            [
                "s1-gc-pause-unfenced.postgres records s1-gc-pause-unfenced, not this step's s2-gc-pause-fenced"
            ]
        );
        assert!(problems("s2-gc-pause-fenced.postgres").is_empty());
    }

    #[test]
    fn a_lesson_step_that_compares_with_nothing_it_can_is_caught() {
        let errors_with = |compare: &str| {
            let mut broken = content();
            let step = broken
                .lessons
                .iter_mut()
                .find(|l| l.id == "redlock-debate")
                .and_then(|l| l.steps.first_mut())
                .expect("the Redlock debate has steps");
            step.compare = Some(compare.to_owned());
            check(&broken)
        };
        let errors = errors_with("zookeeper");
        assert!(
            errors
                .iter()
                .any(|e| e.place.ends_with(".compare") && e.problem.contains("`zookeeper`")),
            "{errors:?}"
        );
        let errors = errors_with("redlock");
        assert!(
            errors
                .iter()
                .any(|e| e.problem.contains("already runs on Redlock")),
            "{errors:?}"
        );
        let errors = errors_with("consensus");
        assert!(
            !errors.iter().any(|e| e.place.ends_with(".compare")),
            "{errors:?}"
        );
        let errors = errors_with("s10-redlock-clock-jump");
        assert!(
            errors.iter().any(|e| e.place.ends_with(".compare")
                && e.problem
                    .contains("This is the scenario s10-redlock-clock-jump")),
            "{errors:?}"
        );
        let errors = errors_with("s11-redlock-crash-restart");
        assert!(
            !errors.iter().any(|e| e.place.ends_with(".compare")),
            "{errors:?}"
        );
    }

    /// A holder question asked just after client-b's grant, revealed one event later: its
    /// answer is on the page before the reveal, so it predicts nothing.
    #[test]
    fn a_prediction_already_true_before_its_event_is_caught() {
        let mut broken = content();
        let scenario = "s2-gc-pause-fenced";
        let mut runs = Runs::default();
        let run = runs.get(scenario).expect("built in");
        let kinds: Vec<String> = run
            .sim
            .trace()
            .iter()
            .map(|e| e.happening.kind().to_owned())
            .collect();
        let second_grant = kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| *k == "granted")
            .nth(1)
            .map(|(i, _)| i)
            .expect("two grants");
        assert_eq!(run.holder_after(second_grant), "client-b");
        let choice = |holder: &str| Choice {
            text: holder.to_owned(),
            kind: None,
            holder: Some(holder.to_owned()),
        };
        broken.lessons[0].steps = vec![super::super::Step {
            scenario: Some(scenario.to_owned()),
            event: second_grant + 1,
            kind: kinds[second_grant + 1].clone(),
            text: "client-b learns of its grant.".to_owned(),
            deeper: None,
            scene: None,
            predict: Some(Predict {
                question: "Who holds the lock once client-b hears of its grant?".to_owned(),
                choices: vec![choice("client-b"), choice("client-a")],
                answer: 0,
                why: "The service granted it to client-b.".to_owned(),
            }),
            break_it: None,
            compare: None,
            real_run: None,
            sources: Vec::new(),
        }];
        let errors = check(&broken);
        assert!(
            errors
                .iter()
                .any(|e| e.place.starts_with("lessons.json lessons[0]")
                    && e.problem.contains("already true just before")),
            "{errors:?}"
        );
    }

    /// Wrong numbers and holders in a step's text, and the summaries that once contradicted
    /// their runs (S5's "200 ms left", S2's "the stale write is rejected"), are caught.
    #[test]
    fn texts_that_contradict_the_screen_are_caught() {
        let mut broken = content();
        let step = &mut broken.lessons[0].steps[3];
        assert_eq!(step.event, 7, "not-a-mutex step 4 shows the lease's expiry");
        step.text = "At 1008 ms the lease with token 35 runs out; client-b holds the lock. It had 900 ms and read value 7.".to_owned();
        let errors = check(&broken);
        let here: Vec<&str> = errors
            .iter()
            .filter(|e| {
                e.place
                    .starts_with("lessons.json lessons[0] (not-a-mutex).steps[3].text")
            })
            .map(|e| e.problem.as_str())
            .collect();
        for claim in [
            "Token(35)",
            "Moment(1008)",
            "Holder(\"client-b\")",
            "Duration(900)",
            "Value(7)",
        ] {
            assert!(
                here.iter().any(|p| p.starts_with(claim)),
                "{claim} in {here:?}"
            );
        }
        let mut broken = content();
        let q = broken
            .questions
            .iter_mut()
            .find(|q| q.id == "q-check-then-write")
            .expect("asked");
        q.explanation = q.explanation.replace("300 ms left", "200 ms left");
        let errors = check(&broken);
        assert!(
            errors
                .iter()
                .any(|e| e.place.contains("(q-check-then-write).explanation")
                    && e.problem.starts_with("TimeLeft(200)")),
            "{errors:?}"
        );
        let load = |id: &str| {
            catalogue::find(id)
                .and_then(|b| b.load().ok())
                .expect("built in")
        };
        let mut runs = Runs::default();
        let mut s5 = load("s5-check-then-write");
        s5.summary =
            "client-a checks its lease just before writing, finds 200 ms left, and moves on."
                .to_owned();
        let problems = scenario_texts(&s5, runs.get("s5-check-then-write").expect("runs"));
        assert!(
            problems.iter().any(|p| p.contains("TimeLeft(200)")),
            "{problems:?}"
        );
        let mut s2 = load("s2-gc-pause-fenced");
        s2.title = "S2 · Fencing tokens 33 and 34: the stale write is rejected".to_owned();
        let problems = scenario_texts(&s2, runs.get("s2-gc-pause-fenced").expect("runs"));
        assert!(
            problems
                .iter()
                .any(|p| p.contains("title states the resource's verdict (rejected)")),
            "{problems:?}"
        );
    }

    #[test]
    fn the_holder_is_read_from_the_service() {
        let scenario = catalogue::find("s2-gc-pause-fenced")
            .and_then(|b| b.load().ok())
            .expect("built in");
        let run = Run::record(&scenario, scenario.seed, &[]).expect("runs");
        let kinds: Vec<String> = run
            .sim
            .trace()
            .iter()
            .map(|e| e.happening.kind().to_owned())
            .collect();
        let first_grant = kinds.iter().position(|k| k == "granted").expect("a grant");
        assert_eq!(run.holder_after(0), "nobody");
        assert_eq!(run.holder_after(first_grant), "client-a");
        let expiry = kinds
            .iter()
            .position(|k| k == "lease_expired")
            .expect("expires");
        assert_eq!(run.holder_after(expiry), "nobody");
    }
}
