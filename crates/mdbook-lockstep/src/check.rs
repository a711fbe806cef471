//! Checking a block against the simulation, natively, at build time: the scenario parses and
//! runs to its end within the budget (`Scenario::parse`, `Sim::with_log`, as the app does), the
//! fencing option applies to its resource, every position (`at`, `from`, `to`) is an event of
//! that run, a lesson and its step exist, and a recorded run is one of the site's. What a
//! reader would otherwise meet as an error inside the embed fails the book's build here
//! instead, naming the line.

use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::error::ScenarioError;
use lockstep_sim::{Scenario, Sim, scenario::catalogue};

use crate::block::{Block, BlockError, Subject};
use crate::lessons::Lessons;
use crate::option::{OptionName, Setting};
use lockstep_view::link::embed::Parameter;
use lockstep_view::recorded::catalogue as recordings;

/// The options that only mean something for a scenario, not a lesson.
const SCENARIO_ONLY: [OptionName; 7] = [
    OptionName::Embed(Parameter::Autoplay),
    OptionName::Embed(Parameter::At),
    OptionName::Embed(Parameter::From),
    OptionName::Embed(Parameter::To),
    OptionName::Embed(Parameter::Fencing),
    OptionName::Embed(Parameter::Compare),
    OptionName::Embed(Parameter::Seed),
];

/// Checks `block`; `opening` is the line of its opening fence.
pub fn check(block: &Block, opening: usize, lessons: &Lessons) -> Result<(), BlockError> {
    let scenario = match &block.subject {
        Subject::BuiltIn { id, line } => built_in(id, *line)?,
        Subject::Inline { json, line, file } => inline(json, *line, file.as_deref())?,
        Subject::Lesson => return lesson(block, lessons),
        Subject::Real => return recorded(block),
    };
    let scenario = with_fencing(scenario, block)?;
    let seed = block
        .setting(OptionName::Embed(Parameter::Seed))
        .and_then(Setting::number)
        .unwrap_or(scenario.seed);
    let events = run_length(&scenario, seed).map_err(|reason| BlockError {
        line: block
            .setting(OptionName::Embed(Parameter::Seed))
            .map_or(opening, |setting| setting.line),
        reason,
    })?;
    positions(block, events)
}

fn built_in(id: &str, line: usize) -> Result<Scenario, BlockError> {
    let found = catalogue::find(id).ok_or_else(|| BlockError {
        line,
        reason: format!(
            "`{id}` is not a built-in scenario (the catalogue's ids are the file names in \
             scenarios/, e.g. {})",
            catalogue::DEFAULT_ID
        ),
    })?;
    found.load().map_err(|e| BlockError {
        line,
        reason: format!("the built-in scenario `{id}` does not load: {e}"),
    })
}

/// Parses the author's scenario. Inline, a syntax error names its own line in the chapter; from
/// a file, the block's `file =` line is named, and the reason names the file's own line.
fn inline(json: &str, first_line: usize, file: Option<&str>) -> Result<Scenario, BlockError> {
    Scenario::parse(json).map_err(|error| match (&error, file) {
        (
            ScenarioError::Syntax {
                line,
                column,
                path,
                message,
            },
            None,
        ) if *line > 0 => BlockError {
            line: first_line + line - 1,
            reason: format!(
                "the scenario, column {column}: {}{message}",
                path.as_ref().map(|p| format!("{p}: ")).unwrap_or_default()
            ),
        },
        (_, Some(file)) => BlockError {
            line: first_line,
            reason: format!("the scenario file {file}: {error}"),
        },
        (_, None) => BlockError {
            line: first_line,
            reason: format!("the scenario: {error}"),
        },
    })
}

fn with_fencing(mut scenario: Scenario, block: &Block) -> Result<Scenario, BlockError> {
    let Some(setting) = block.setting(OptionName::Embed(Parameter::Fencing)) else {
        return Ok(scenario);
    };
    let fencing = match setting.value.as_str() {
        "on" => Fencing::On,
        "off" => Fencing::Off,
        "sequencer" => Fencing::Sequencer,
        "check_and_set" => Fencing::CheckAndSet,
        // `option.rs` admits only the four words above; this keeps a new one from passing
        // unchecked.
        other => {
            return Err(BlockError {
                line: setting.line,
                reason: format!("`fencing`: `{other}` is not a fencing this checker knows"),
            });
        }
    };
    if scenario.resource.fencing().is_none() {
        return Err(BlockError {
            line: setting.line,
            reason: "`fencing`: this scenario's resource has no fencing to set".to_string(),
        });
    }
    scenario.resource = scenario.resource.with_fencing(fencing);
    Ok(scenario)
}

/// How many events the run has: the positions a reader can step to are `0..=events`.
fn run_length(scenario: &Scenario, seed: u64) -> Result<usize, String> {
    let mut sim = Sim::with_log(scenario, seed, &[]).map_err(|e| format!("the scenario: {e}"))?;
    sim.run_to_end();
    match sim.stopped_by_budget() {
        Some(spent) => Err(format!("the scenario with seed {seed}: {spent}")),
        None => Ok(sim.trace().len()),
    }
}

fn positions(block: &Block, events: usize) -> Result<(), BlockError> {
    let position = |name| {
        block
            .setting(name)
            .and_then(|s| s.number::<usize>().map(|n| (n, s.line)))
    };
    let (at, from, to) = (
        position(OptionName::Embed(Parameter::At)),
        position(OptionName::Embed(Parameter::From)),
        position(OptionName::Embed(Parameter::To)),
    );
    for (name, found) in [("at", at), ("from", from), ("to", to)] {
        if let Some((n, line)) = found
            && n > events
        {
            return Err(BlockError {
                line,
                reason: format!(
                    "`{name}`: {n} is past the run's end (its positions are 0 to {events})"
                ),
            });
        }
    }
    if let (Some((from, _)), Some((to, line))) = (from, to)
        && from > to
    {
        return Err(BlockError {
            line,
            reason: format!("`to`: {to} is before `from` ({from})"),
        });
    }
    if let Some((at, line)) = at {
        let low = from.map_or(0, |(n, _)| n);
        let high = to.map_or(events, |(n, _)| n);
        if !(low..=high).contains(&at) {
            return Err(BlockError {
                line,
                reason: format!("`at`: {at} is outside the excerpt {low} to {high}"),
            });
        }
    }
    Ok(())
}

/// Refuses an option that only a scenario takes, saying why `this` (a lesson, a recorded run)
/// does not.
fn no_scenario_options(block: &Block, this: &str) -> Result<(), BlockError> {
    match SCENARIO_ONLY.iter().find_map(|name| block.setting(*name)) {
        Some(setting) => Err(BlockError {
            line: setting.line,
            reason: format!("`{}` applies to a scenario; {this}", setting.name),
        }),
        None => Ok(()),
    }
}

fn lesson(block: &Block, lessons: &Lessons) -> Result<(), BlockError> {
    no_scenario_options(block, "a lesson sets its own moments")?;
    let Some(learn) = block.setting(OptionName::Embed(Parameter::Learn)) else {
        return Ok(());
    };
    let Some(steps) = lessons.steps(&learn.value) else {
        return Err(BlockError {
            line: learn.line,
            reason: format!(
                "`learn`: there is no lesson `{}`; the lessons are {}",
                learn.value,
                lessons.ids().join(", ")
            ),
        });
    };
    match block.setting(OptionName::Embed(Parameter::Step)) {
        Some(step) if step.number::<usize>().is_some_and(|n| n > steps) => Err(BlockError {
            line: step.line,
            reason: format!("`step`: the lesson `{}` has {steps} steps", learn.value),
        }),
        _ => Ok(()),
    }
}

/// A recorded real run: shown whole (no moment, excerpt, fencing, seed or comparison), and one
/// of the site's recordings.
fn recorded(block: &Block) -> Result<(), BlockError> {
    no_scenario_options(
        block,
        "a recorded run is shown whole, beside its simulation",
    )?;
    let Some(real) = block.setting(OptionName::Embed(Parameter::Real)) else {
        return Ok(());
    };
    if recordings::find(&real.value).is_none() {
        return Err(BlockError {
            line: real.line,
            reason: format!(
                "`real`: there is no recorded run `{}`; the recordings are {}",
                real.value,
                recordings::RECORDINGS
                    .iter()
                    .map(recordings::Recording::id)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lessons() -> Lessons {
        Lessons::embedded().expect("the shipped lessons read")
    }

    /// Checks a block whose fence is on line 1 and whose body starts on line 2.
    fn outcome(body: &str) -> Result<(), BlockError> {
        let lines: Vec<(usize, String)> = body
            .lines()
            .enumerate()
            .map(|(i, text)| (i + 2, text.to_string()))
            .collect();
        let block = Block::read(1, &lines, &load)?;
        check(&block, 1, &lessons())
    }

    fn error(body: &str) -> BlockError {
        outcome(body).expect_err("the block is wrong")
    }

    /// Two scenario files: S2 as shipped, and S2 with a syntax error on its fourth line.
    fn load(path: &str) -> Result<String, String> {
        match path {
            "s2.json" => Ok(s2_edited(("", ""))),
            "broken.json" => Ok(s2_edited(("\"title\": ", "\"title\" "))),
            _ => Err(format!("cannot read {path}")),
        }
    }

    /// S2's own file, as an author would paste it, with `edit` applied.
    fn s2_edited(edit: (&str, &str)) -> String {
        let json = catalogue::find("s2-gc-pause-fenced")
            .expect("S2 is built in")
            .json;
        assert!(json.contains(edit.0), "{}", edit.0);
        json.replacen(edit.0, edit.1, 1)
    }

    fn s2_events() -> usize {
        let scenario = catalogue::find("s2-gc-pause-fenced")
            .and_then(|b| b.load().ok())
            .expect("S2 loads");
        run_length(&scenario, scenario.seed).expect("S2 runs")
    }

    #[test]
    fn a_recorded_run_must_be_one_of_the_sites_and_whole() {
        outcome("real = s2-gc-pause-fenced.postgres\ntheme = dark").expect("valid");
        let unknown = error("real = s2-gc-pause-fenced.redis");
        assert_eq!(unknown.line, 2);
        assert!(
            unknown
                .reason
                .starts_with("`real`: there is no recorded run `s2-gc-pause-fenced.redis`; the recordings are s1-gc-pause-unfenced.postgres, s2-gc-pause-fenced.postgres,"),
            "{}",
            unknown.reason
        );
        let excerpt = error("real = s2-gc-pause-fenced.postgres\nfrom = 3");
        assert_eq!(excerpt.line, 3);
        assert!(excerpt.reason.contains("a recorded run is shown whole"));
    }

    #[test]
    fn good_blocks_pass() {
        let end = s2_events();
        outcome(&format!(
            "s2-gc-pause-fenced\nfrom = 2\nat = 5\nto = {end}\nfencing = off\nseed = 7"
        ))
        .expect("valid");
        outcome(&format!("caption = Mine\n{}", s2_edited(("", "")))).expect("valid inline");
        outcome("learn = fencing-tokens\nstep = 2").expect("valid lesson");
    }

    #[test]
    fn an_unknown_id_names_its_line() {
        let error = error("at = 1\ns2-gc-pause");
        assert_eq!(error.line, 3);
        assert!(
            error
                .reason
                .contains("`s2-gc-pause` is not a built-in scenario")
        );
    }

    #[test]
    fn a_json_syntax_error_names_its_own_line_in_the_chapter() {
        // The JSON starts on chapter line 3; its fourth line (the title) is chapter line 6.
        let json = s2_edited(("\"title\": ", "\"title\" "));
        let error = error(&format!("controls = full\n{json}"));
        assert_eq!(error.line, 6, "{}", error.reason);
        assert!(
            error.reason.starts_with("the scenario, column"),
            "{}",
            error.reason
        );
    }

    #[test]
    fn a_scenario_file_is_checked_and_its_errors_name_its_own_line() {
        outcome("file = s2.json\nat = 3").expect("valid");
        let error = error("controls = full\nfile = broken.json");
        assert_eq!(error.line, 3, "{}", error.reason);
        assert!(
            error
                .reason
                .starts_with("the scenario file broken.json: line 4, column"),
            "{}",
            error.reason
        );
    }

    #[test]
    fn an_invalid_scenario_names_the_field() {
        let json = s2_edited(("\"ttl_ms\": 1000", "\"ttl_ms\": 0"));
        let error = error(&json);
        assert!(error.reason.contains("ttl_ms"), "{}", error.reason);
        assert!((2..2 + json.lines().count()).contains(&error.line));
    }

    #[test]
    fn positions_must_be_in_the_run_and_in_order() {
        let end = s2_events();
        let past = error(&format!("s2-gc-pause-fenced\nat = {}", end + 1));
        assert_eq!(past.line, 3);
        assert!(
            past.reason.contains("past the run's end"),
            "{}",
            past.reason
        );
        outcome(&format!("s2-gc-pause-fenced\nat = {end}")).expect("the end is a position");
        assert_eq!(error("s2-gc-pause-fenced\nfrom = 5\nto = 4").line, 4);
        assert_eq!(
            error("s2-gc-pause-fenced\nfrom = 5\nto = 9\nat = 3").line,
            5
        );
    }

    #[test]
    fn fencing_needs_a_resource_with_fencing() {
        let error = error("a3-idempotency-keys\nfencing = on");
        assert_eq!(error.line, 3);
        assert!(error.reason.contains("no fencing"), "{}", error.reason);
    }

    #[test]
    fn lessons_and_their_steps_must_exist() {
        assert_eq!(error("learn = fencing\n").line, 2);
        let step = error("learn = fencing-tokens\nstep = 99");
        assert_eq!(step.line, 3);
        assert!(step.reason.contains("steps"), "{}", step.reason);
        assert_eq!(error("learn = fencing-tokens\nat = 3").line, 3);
        assert_eq!(error("learn = fencing-tokens\nautoplay = 1").line, 3);
    }
}
