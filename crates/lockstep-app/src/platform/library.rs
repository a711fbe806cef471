//! The data the app loads when a page first needs it, not compiled into the wasm: each built-in
//! scenario (`scenarios/<id>.json`) and the guided material (`content/*.json`), fetched from
//! the site beside the page (Trunk copies them into `dist/`) and kept for the rest of the visit.
//!
//! The wasm carries only what the first screen needs: the default scenario and the catalogue's
//! index (ids and titles, `lockstep_sim::scenario::catalogue::INDEX`). Loading never changes the
//! playground by itself: the loaders dispatch [`Actions::loading`] (the page says what is
//! loading), then the action the caller asked for with the parsed data, or [`Actions::failed`]
//! with what failed — which keeps whatever was open. The cache of loaded scenarios only grows,
//! and holds parsed, immutable files.
//!
//! What this module must not do: change the playground other than by dispatching actions, or
//! fetch anything not shipped with the site.

use crate::platform::fetch::{self, FetchError};
use crate::platform::load_actions::Actions;
use crate::state::import::built_in_of_trace;
use lockstep_sim::scenario::catalogue;
use lockstep_sim::scenario::error::ScenarioError;
use lockstep_sim::scenario::types::Scenario;
use lockstep_view::content::{Content, ContentError};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;
use yew::Callback;

thread_local! {
    /// The built-in scenarios loaded so far in this visit, parsed.
    static SCENARIOS: RefCell<BTreeMap<&'static str, Rc<Scenario>>> =
        const { RefCell::new(BTreeMap::new()) };
    /// How many scenario openings have been asked for: only the latest one's action is
    /// dispatched, so a slow file cannot open over a choice made after it.
    static ASKED: Cell<u64> = const { Cell::new(0) };
    /// The guided material once it has arrived in this visit.
    static CONTENT: RefCell<Option<Rc<Content>>> = const { RefCell::new(None) };
}

/// The guided material if it is in hand: in the build's render always (compiled in), in the
/// browser once [`content`] has fetched it (a page the build rendered fetches it before the app
/// draws, `platform::mount`).
pub fn kept_content() -> Option<Rc<Content>> {
    #[cfg(feature = "ssr")]
    return Some(embedded_content());
    #[cfg(not(feature = "ssr"))]
    CONTENT.with(|c| c.borrow().clone())
}

/// Why a data file could not be loaded.
#[derive(Clone, Debug, PartialEq)]
pub enum LoadError {
    Fetch { file: String, error: FetchError },
    Scenario { file: String, error: ScenarioError },
    Content(ContentError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Fetch { file, error } => write!(f, "{file}: {error}"),
            LoadError::Scenario { file, error } => write!(f, "{file} cannot be read: {error}"),
            LoadError::Content(error) => write!(f, "{error}"),
        }
    }
}

/// The built-in scenario `id` if it is loaded: the default one always (it is in the wasm), any
/// other once its file has arrived.
pub fn loaded(id: &str) -> Option<Rc<Scenario>> {
    if let Some(scenario) = SCENARIOS.with(|s| s.borrow().get(id).cloned()) {
        return Some(scenario);
    }
    let entry = catalogue::entry(id)?;
    let text = embedded(entry.id)?;
    let scenario = Rc::new(Scenario::parse(text).ok()?);
    keep(entry.id, &scenario);
    Some(scenario)
}

#[cfg(not(feature = "ssr"))]
fn embedded(id: &str) -> Option<&'static str> {
    (id == catalogue::DEFAULT_ID).then_some(catalogue::DEFAULT_JSON)
}

/// The build's render (decision 43): every built-in scenario is in the binary.
#[cfg(feature = "ssr")]
fn embedded(id: &str) -> Option<&'static str> {
    catalogue::find(id).map(|built_in| built_in.json)
}

/// The build's render (decision 43): the guided material, compiled in.
#[cfg(feature = "ssr")]
pub fn embedded_content() -> Rc<Content> {
    thread_local! {
        static CONTENT: Rc<Content> = Rc::new(
            Content::parse([
                include_str!("../../../../content/lessons.json"),
                include_str!("../../../../content/questions.json"),
                include_str!("../../../../content/cards.json"),
                include_str!("../../../../content/guide.json"),
            ])
            .expect("the content files parse"),
        );
    }
    CONTENT.with(Rc::clone)
}

fn keep(id: &'static str, scenario: &Rc<Scenario>) {
    SCENARIOS.with(|s| s.borrow_mut().insert(id, Rc::clone(scenario)));
}

/// Dispatches `then(scenario)` for the built-in scenario `id`: at once if it is loaded, else
/// once its file has arrived, with a loading message meanwhile. A failed load is reported and
/// changes nothing else.
pub fn with_built_in<A: Actions>(
    id: &'static str,
    dispatch: Callback<A>,
    then: impl FnOnce(Rc<Scenario>) -> A + 'static,
) {
    with_built_in_and(id, None, dispatch, then);
}

/// As [`with_built_in`], once the built-in scenario `also` is loaded too: the other scenario a
/// comparison runs as its twin (`Comparison::Scenario`), which `then` reads from [`loaded`]
/// and puts into its action.
pub fn with_built_in_and<A: Actions>(
    id: &'static str,
    also: Option<&'static str>,
    dispatch: Callback<A>,
    then: impl FnOnce(Rc<Scenario>) -> A + 'static,
) {
    let ask = ask();
    let missing = [Some(id), also]
        .into_iter()
        .flatten()
        .find(|id| loaded(id).is_none());
    let Some(missing) = missing else {
        // Both are in the cache: `loaded` finds `id` at once.
        if let Some(scenario) = loaded(id) {
            dispatch.emit(then(scenario));
        }
        return;
    };
    let (title, bytes) = title_and_size(missing);
    dispatch.emit(A::loading(format!(
        "Loading the scenario \u{201c}{title}\u{201d} ({})…",
        kilobytes(bytes)
    )));
    wasm_bindgen_futures::spawn_local(async move {
        let result = async {
            let scenario = built_in(id).await.map_err(|e| (id, e))?;
            if let Some(also) = also {
                built_in(also).await.map_err(|e| (also, e))?;
            }
            Ok(scenario)
        }
        .await;
        if ASKED.with(Cell::get) != ask {
            // Something else was opened meanwhile; the files stay loaded for later.
            return;
        }
        dispatch.emit(match result {
            Ok(scenario) => then(scenario),
            Err((failed, error)) => {
                let (title, _) = title_and_size(failed);
                A::failed(format!(
                    "The scenario \u{201c}{title}\u{201d} could not be loaded. {error}. What \
                     was open is unchanged; try again, or reload the page."
                ))
            }
        });
    });
}

/// Dispatches `then()` once the built-in scenarios a link names are loaded: `shown` (its `s=`)
/// and `compared` (a scenario its `compare=` names); at once if it names none.
pub fn with_files_of_link<A: Actions>(
    shown: Option<&'static str>,
    compared: Option<&'static str>,
    dispatch: Callback<A>,
    then: impl FnOnce() -> A + 'static,
) {
    match (shown, compared) {
        (Some(id), also) => with_built_in_and(id, also, dispatch, move |_| then()),
        (None, Some(id)) => with_built_in(id, dispatch, move |_| then()),
        (None, None) => dispatch.emit(then()),
    }
}

fn title_and_size(id: &'static str) -> (&'static str, usize) {
    catalogue::entry(id).map_or((id, 0), |e| (e.title, e.bytes))
}

/// The built-in scenario `id`: at once if it is loaded, else once its file has arrived. For a
/// view that needs the scenario itself, not the playground opened on it (the search section).
pub async fn built_in(id: &'static str) -> Result<Rc<Scenario>, LoadError> {
    match loaded(id) {
        Some(scenario) => Ok(scenario),
        None => fetch_scenario(id).await,
    }
}

async fn fetch_scenario(id: &'static str) -> Result<Rc<Scenario>, LoadError> {
    let file = format!("scenarios/{id}.json");
    let text = fetch::request(&file)
        .map_err(|error| LoadError::Fetch {
            file: file.clone(),
            error,
        })?
        .text()
        .await
        .map_err(|error| LoadError::Fetch {
            file: file.clone(),
            error,
        })?;
    let scenario = Rc::new(Scenario::parse(&text).map_err(|error| LoadError::Scenario {
        file: file.clone(),
        error,
    })?);
    keep(id, &scenario);
    Ok(scenario)
}

/// Counts one more opening asked for, and returns its number: a file still on its way for an
/// earlier one will not open over it.
fn ask() -> u64 {
    ASKED.with(|asked| {
        asked.set(asked.get() + 1);
        asked.get()
    })
}

/// Dispatches [`Actions::import`] for a file's text (an imported file, the sandbox form's run): a
/// trace that names a built-in scenario (and carries no scenario file) is replayed from that
/// scenario, so its file is loaded first. Either way it is the latest opening: a built-in
/// scenario still loading for an earlier link or choice does not replace it when it arrives.
pub fn import<A: Actions>(text: String, dispatch: Callback<A>) {
    match built_in_of_trace(&text) {
        Some(id) => with_built_in(id, dispatch, move |scenario| {
            A::import(text, Some(scenario))
        }),
        None => {
            ask();
            dispatch.emit(A::import(text, None));
        }
    }
}

/// The guided material: in hand ([`kept_content`]), or its files fetched together (all four
/// requests in flight at once) and kept.
pub async fn content() -> Result<Rc<Content>, LoadError> {
    if let Some(content) = kept_content() {
        return Ok(content);
    }
    let mut pending = Vec::new();
    for name in Content::FILES {
        let file = format!("content/{name}");
        let request = fetch::request(&file).map_err(|error| LoadError::Fetch {
            file: file.clone(),
            error,
        })?;
        pending.push((file, request));
    }
    // Every answer is read to its end, even after one has failed, so that no request is left
    // half-read; the first failure is the one reported.
    let mut texts = Vec::new();
    for (file, request) in pending {
        texts.push(
            request
                .text()
                .await
                .map_err(|error| LoadError::Fetch { file, error }),
        );
    }
    let texts = texts
        .into_iter()
        .collect::<Result<Vec<String>, LoadError>>()?;
    let [lessons, questions, cards, guide] = <[String; 4]>::try_from(texts)
        .unwrap_or_else(|_| unreachable!("four files were requested"));
    let content = Content::parse([&lessons, &questions, &cards, &guide])
        .map(Rc::new)
        .map_err(LoadError::Content)?;
    CONTENT.with(|c| *c.borrow_mut() = Some(Rc::clone(&content)));
    Ok(content)
}

/// The guided material as the pages see it.
#[derive(Clone, Debug, PartialEq)]
pub enum Material {
    /// Not asked for yet: no page that needs it has been opened.
    NotLoaded,
    Loading,
    Ready(Rc<Content>),
    Failed(String),
}

/// "4 KB", rounded up: for the loading line.
fn kilobytes(bytes: usize) -> String {
    format!("{} KB", bytes.div_ceil(1000).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_said_in_whole_kilobytes() {
        assert_eq!(kilobytes(0), "1 KB");
        assert_eq!(kilobytes(4_001), "5 KB");
    }
}
