//! Loading what the real-runs page shows: a recording shipped with the site (its file, then
//! the built-in scenario it plays), or a history the user chose from their disk (and the
//! scenario it names, if built in). Either ends as a [`SideBySide`] or as words saying what
//! failed and where; nothing here changes what the page shows.

use crate::platform::fetch;
use crate::platform::library;
use lockstep_sim::scenario::catalogue;
use lockstep_sim::story::recorded::RecordedHistory;
use lockstep_view::recorded::catalogue::find;
use lockstep_view::recorded::side_by_side::SideBySide;
use std::rc::Rc;

/// The recording `id` names, beside its scenario's simulation.
pub async fn recording(id: &str) -> Result<Rc<SideBySide>, String> {
    let recording =
        find(id).ok_or_else(|| format!("The site has no recorded run named \"{id}\"."))?;
    let file = recording.file();
    let text = fetch::request(&file)
        .map_err(|e| format!("{file}: {e}"))?
        .text()
        .await
        .map_err(|e| format!("{file}: {e}"))?;
    let history =
        RecordedHistory::parse(&text).map_err(|e| format!("{file} cannot be read: {e}"))?;
    beside(history).await
}

/// A history from the user's disk, beside the simulation of the scenario it names (when that
/// is built in), or alone.
pub async fn own(name: &str, text: &str) -> Result<Rc<SideBySide>, String> {
    let history = RecordedHistory::parse(text).map_err(|e| {
        if RecordedHistory::is_history(text) {
            format!("{name} cannot be read: {e}")
        } else {
            format!(
                "{name} is not a recorded history (its top level has no \"history\" version): {e}"
            )
        }
    })?;
    beside(history).await
}

async fn beside(history: RecordedHistory) -> Result<Rc<SideBySide>, String> {
    let built_in = history
        .scenario
        .as_deref()
        .and_then(catalogue::entry)
        .map(|entry| entry.id);
    let scenario = match built_in {
        Some(id) => Some(library::built_in(id).await.map_err(|e| e.to_string())?),
        None => None,
    };
    SideBySide::of(history, scenario.as_deref())
        .map(Rc::new)
        .map_err(|e| format!("The scenario this history plays cannot run: {e}"))
}
