//! The banner of a step that opens another scene than the step before (another scenario or
//! another comparison): the scenario it opens and, in the content's words, what changed and
//! why. Without it only the caption under the timeline would change.

use lockstep_sim::scenario::catalogue;
use lockstep_view::content::Lesson;
use yew::prelude::*;

/// The banner of step `index`, if the step changes the scene (the content check makes every
/// such step say why).
pub fn scene_banner(lesson: &Lesson, index: usize) -> Option<Html> {
    let step = lesson.steps.get(index)?;
    let why = step
        .scene
        .as_ref()
        .filter(|_| lesson.changes_scene(index))?;
    let scenario = lesson.scenario_of(index);
    let title = catalogue::entry(scenario).map_or(scenario, |e| e.title);
    Some(html! {
        <div class="scene-change" role="note" aria-label="New scene" data-testid="scene-change"
            data-scenario={scenario.to_owned()}>
            <p class="scene-title"><span class="scene-tag">{ "New scene" }</span>{ " " }{ title }</p>
            <p class="scene-why">{ why.clone() }</p>
        </div>
    })
}
