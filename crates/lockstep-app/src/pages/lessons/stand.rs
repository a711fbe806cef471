//! Standing the playground where a lesson step is: just after its event, or just before it
//! while the step's prediction is open. It changes the run only by dispatching actions.

use crate::link;
use crate::platform::library;
use crate::state::{Action, Compare, Comparison, Moment, Origin, Playground};
use lockstep_sim::scenario::catalogue;
use lockstep_sim::scenario::types::Scenario;
use lockstep_view::content::{Content, Lesson};
use yew::prelude::*;

/// Stands the playground at step `step_index` of `lesson` whenever the step (or whether it is
/// `showing` its event) changes; the scenario's file is loaded first if need be.
#[hook]
pub fn use_stand_at(
    lesson: Option<&Lesson>,
    step_index: usize,
    showing: bool,
    playground: &UseReducerHandle<Playground>,
    dispatch: &Callback<Action>,
) {
    let dispatch = dispatch.clone();
    let playground = playground.clone();
    let target = lesson.and_then(|l| {
        let step = l.steps.get(step_index)?;
        Some((
            l.scenario_of(step_index).to_owned(),
            step.event + usize::from(showing),
            step.compare.clone(),
        ))
    });
    use_effect_with(target, move |target| {
        if let Some((scenario_id, position, compare)) = target {
            let position = *position;
            // The content check has read every step's `compare`; a bad one is shown anyway.
            let compare = match compare.as_deref().map(link::compare_of).transpose() {
                Ok(compare) => compare,
                Err(e) => {
                    dispatch.emit(Action::Report(format!("This lesson step's {e}")));
                    None
                }
            };
            match catalogue::entry(scenario_id) {
                // Its file (and a twin scenario's) may have to load first: the page says so
                // meanwhile.
                Some(entry) => {
                    let twin = match compare {
                        Some(Compare::Scenario(twin)) => Some(twin),
                        _ => None,
                    };
                    library::with_built_in_and(entry.id, twin, dispatch, move |scenario| {
                        stand_at(&playground, entry.id, &scenario, position, compare)
                    })
                }
                None => dispatch.emit(Action::Report(format!(
                    "The lesson's scenario {scenario_id} is missing from this build."
                ))),
            }
        }
    });
}

/// The built-in scenarios step `step_index` of lesson `id` plays (and compares with): what must be
/// in hand for [`first_stand`].
pub(crate) fn scenarios_of_step(
    content: &Content,
    id: &str,
    step_index: usize,
) -> Vec<&'static str> {
    let Some(lesson) = content.lesson(id) else {
        return Vec::new();
    };
    let step_index = step_index.min(lesson.steps.len().saturating_sub(1));
    let twin = lesson
        .steps
        .get(step_index)
        .and_then(|step| step.compare.as_deref())
        .and_then(|compare| link::compare_of(compare).ok())
        .and_then(|compare| match compare {
            Compare::Scenario(twin) => Some(twin),
            _ => None,
        });
    catalogue::entry(lesson.scenario_of(step_index))
        .map(|entry| entry.id)
        .into_iter()
        .chain(twin)
        .collect()
}

/// The action that stands a fresh playground at step `step_index` of lesson `id` at once, where
/// [`use_stand_at`]'s effect would do it after the first render: the build renders a lesson step
/// so, and the browser's first render must draw the same (decision 43). `None` if a file is not
/// in hand: the render then shows the playground as it is, and the effect stands it.
pub(crate) fn first_stand(playground: &Playground, id: &str, step_index: usize) -> Option<Action> {
    let content = library::kept_content()?;
    let lesson = content.lesson(id)?;
    let step_index = step_index.min(lesson.steps.len().saturating_sub(1));
    let step = lesson.steps.get(step_index)?;
    // No prediction is answered yet: a step that asks one stands before its event.
    let showing = step.predict.is_none();
    let compare = step
        .compare
        .as_deref()
        .map(link::compare_of)
        .transpose()
        .ok()?;
    let entry = catalogue::entry(lesson.scenario_of(step_index))?;
    let scenario = library::loaded(entry.id)?;
    if let Some(Compare::Scenario(twin)) = compare {
        library::loaded(twin)?;
    }
    let position = step.event + usize::from(showing);
    Some(stand_at(playground, entry.id, &scenario, position, compare))
}

/// The action that stands the playground at `position` of the built-in scenario `id` (its
/// `scenario`, loaded), comparing it with `compare` if the step says so: a seek if it already
/// shows that scenario untouched (and compared as asked), else a fresh open.
fn stand_at(
    playground: &Playground,
    id: &'static str,
    scenario: &Scenario,
    position: usize,
    compare: Option<Compare>,
) -> Action {
    let untouched = playground.origin() == &Origin::BuiltIn(id)
        && playground.scenario() == Some(scenario)
        && playground.seed() == scenario.seed
        && playground.log().is_empty()
        && compare.is_none_or(|c| c == playground.compare());
    // The twin scenario's file was loaded with this one (`library::with_built_in_and`).
    let comparison = match Comparison::of(compare.unwrap_or(Compare::Off), &library::loaded) {
        Ok(comparison) => comparison,
        Err(id) => {
            return Action::Report(format!("The scenario {id} is not loaded yet: try again."));
        }
    };
    if untouched {
        Action::SeekTo(position)
    } else {
        Action::Restore(Box::new(Moment {
            origin: Origin::BuiltIn(id),
            seed: scenario.seed,
            scenario: scenario.clone(),
            log: Vec::new(),
            position: Some(position),
            compare: comparison,
        }))
    }
}
