//! The app's effects: autoplay's timer, pausing when the tab is hidden, keyboard shortcuts, and
//! keeping the URL in step with the playground. Each owns its listener or timer and drops it on
//! cleanup; each only dispatches actions — virtual time always comes from the simulation. When
//! the panels below the story draw the moment shown is `panels_wait`'s.

use crate::browser;
use crate::library;
use crate::link;
use crate::state::{Action, Jump, Play, Playground, Speed};
use gloo_events::{EventListener, EventListenerOptions};
use gloo_timers::callback::{Interval, Timeout};
use lockstep_view::route::Route;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent};
use yew::prelude::*;

/// Ticks while playing, at the chosen speed; nothing while paused.
#[hook]
pub fn use_autoplay(play: Play, speed: Speed, dispatch: Callback<Action>) {
    use_effect_with((play, speed), move |(play, speed)| {
        let interval = (*play == Play::Playing)
            .then(|| Interval::new(speed.tick_ms(), move || dispatch.emit(Action::Tick)));
        move || drop(interval)
    });
}

/// Pauses autoplay when the tab is hidden: nobody is watching.
#[hook]
pub fn use_pause_when_hidden(dispatch: Callback<Action>) {
    use_effect_with((), move |_| {
        let listener = web_sys::window()
            .and_then(|w| w.document())
            .map(|document| {
                let target = document.clone();
                EventListener::new(&target, "visibilitychange", move |_| {
                    if document.hidden() {
                        dispatch.emit(Action::Pause);
                    }
                })
            });
        move || drop(listener)
    });
}

/// What a key does, if anything.
pub enum Shortcut {
    Act(Action),
    ToggleHelp,
    CloseDialogs,
}

fn shortcut(key: &str) -> Option<Shortcut> {
    Some(match key {
        " " | "k" => Shortcut::Act(Action::TogglePlay),
        "ArrowRight" | "l" => Shortcut::Act(Action::Step),
        "ArrowLeft" | "j" => Shortcut::Act(Action::Back),
        "Home" => Shortcut::Act(Action::Reset),
        "End" => Shortcut::Act(Action::SeekTo(usize::MAX)),
        "n" => Shortcut::Act(Action::JumpToViolation(Jump::Next)),
        "p" => Shortcut::Act(Action::JumpToViolation(Jump::Previous)),
        "f" => Shortcut::Act(Action::JumpToViolation(Jump::First)),
        "c" => Shortcut::Act(Action::ToggleCompare),
        "?" => Shortcut::ToggleHelp,
        "Escape" => Shortcut::CloseDialogs,
        _ => return None,
    })
}

/// The page a visit starts on.
pub fn initial_route() -> Route {
    Route::parse(&browser::fragment()).unwrap_or(Route::Playground)
}

/// The keys and what they do, for the shortcut sheet.
pub const SHORTCUTS: [(&str, &str); 11] = [
    ("Space or k", "Play or pause"),
    (
        "→ or l",
        "Step forward one event (in a lesson: the next step)",
    ),
    (
        "← or j",
        "Step back one event (in a lesson: the previous step)",
    ),
    ("Home", "Back to the start"),
    ("End", "To the end of the run"),
    ("f", "First invariant violation"),
    ("n", "Next invariant violation"),
    ("p", "Previous invariant violation"),
    ("c", "Compare fencing on and off"),
    ("?", "Show or hide this sheet"),
    ("Esc", "Close a dialog"),
];

/// Keyboard shortcuts for the whole page. Keys typed into a field, a menu or a slider stay
/// theirs; Space and Enter on a focused button press the button, as everywhere else. In a
/// lesson, ← and → go to the previous and next step (`lesson_arrows` gets `true` for next).
#[hook]
pub fn use_keyboard(
    dispatch: Callback<Action>,
    on_help: Callback<()>,
    on_close: Callback<()>,
    lesson_arrows: Option<Callback<bool>>,
) {
    use_effect_with(lesson_arrows, move |lesson_arrows| {
        let lesson_arrows = lesson_arrows.clone();
        let listener = web_sys::window()
            .and_then(|w| w.document())
            .map(|document| {
                let options = EventListenerOptions::enable_prevent_default();
                EventListener::new_with_options(&document, "keydown", options, move |event| {
                    let Some(event) = event.dyn_ref::<KeyboardEvent>() else {
                        return;
                    };
                    if event.ctrl_key() || event.meta_key() || event.alt_key() {
                        return;
                    }
                    let target = event
                        .target()
                        .and_then(|t| t.dyn_into::<HtmlElement>().ok());
                    let tag = target.as_ref().map(|t| t.tag_name().to_ascii_lowercase());
                    let in_field = matches!(tag.as_deref(), Some("input" | "select" | "textarea"));
                    let on_control = matches!(tag.as_deref(), Some("button" | "summary"))
                        || target
                            .as_ref()
                            .is_some_and(|t| t.get_attribute("role").as_deref() == Some("button"));
                    let key = event.key();
                    if in_field && key != "Escape" {
                        return;
                    }
                    if on_control && (key == " " || key == "Enter") {
                        return;
                    }
                    if let Some(arrows) = &lesson_arrows
                        && (key == "ArrowLeft" || key == "ArrowRight")
                    {
                        event.prevent_default();
                        arrows.emit(key == "ArrowRight");
                        return;
                    }
                    match shortcut(&key) {
                        Some(Shortcut::Act(action)) => {
                            event.prevent_default();
                            dispatch.emit(action);
                        }
                        Some(Shortcut::ToggleHelp) => {
                            event.prevent_default();
                            on_help.emit(());
                        }
                        Some(Shortcut::CloseDialogs) => on_close.emit(()),
                        None => {}
                    }
                })
            });
        move || drop(listener)
    });
}

/// How long the playground must stand still before the URL follows it. Writing the URL is a
/// same-document navigation that costs Chromium several milliseconds (more with a long custom
/// scenario in it): too dear for every Step of autoplay, a held arrow key or a scrub.
const URL_QUIET_MS: u32 = 250;

/// What the URL shows and what it should show. The first change after a quiet spell is written
/// at once; changes that follow it within [`URL_QUIET_MS`] wait, and the last of them is written
/// when they stop. `<html data-url>` says `waiting` while a change waits to be written and
/// `written` once the URL shows what the page wanted (`docs/test-hooks.md`).
struct UrlWriter {
    wanted: Option<String>,
    written: String,
    quiet: Option<Timeout>,
}

impl UrlWriter {
    fn want(writer: &Rc<RefCell<UrlWriter>>, fragment: String) {
        let mut this = writer.borrow_mut();
        this.wanted = Some(fragment);
        if this.quiet.is_none() {
            this.flush();
        }
        let later = Rc::clone(writer);
        this.quiet = Some(Timeout::new(URL_QUIET_MS, move || {
            let mut this = later.borrow_mut();
            this.quiet = None;
            this.flush();
        }));
        this.mark();
    }

    fn flush(&mut self) {
        if let Some(wanted) = self.wanted.take()
            && wanted != self.written
        {
            browser::replace_fragment(&wanted);
            self.written = wanted;
        }
        self.mark();
    }

    /// Says on `<html data-url>` whether a change still waits to be written.
    fn mark(&self) {
        let waiting = self.wanted.is_some();
        browser::mark("url", if waiting { "waiting" } else { "written" });
    }
}

/// Writes the page — or on the playground, its moment (`moment_fragment`, from
/// `link::encode`) — into the URL as it changes (see [`UrlWriter`]), and follows links clicked or
/// pasted into the address bar.
#[hook]
pub fn use_url_sync(
    moment_fragment: Option<String>,
    route: UseStateHandle<Route>,
    dispatch: Callback<Action>,
) {
    // The address the visit started at, read before the effect below rewrites it.
    let arrival = use_memo((), |_| browser::fragment());
    let writer = use_mut_ref(|| {
        let writer = UrlWriter {
            wanted: None,
            written: browser::fragment(),
            quiet: None,
        };
        writer.mark();
        writer
    });
    let fragment = route.fragment().or(moment_fragment);
    {
        let writer = Rc::clone(&writer);
        use_effect_with(fragment, move |fragment| {
            if let Some(fragment) = fragment {
                UrlWriter::want(&writer, fragment.clone());
            }
        });
    }
    use_effect_with((), move |_| {
        // A link the first render could not open: its scenario's file is still to load.
        if Route::parse(&arrival).is_none() && waits_for_its_scenario(&arrival) {
            follow_link(arrival.to_string(), dispatch.clone());
        }
        let listener = web_sys::window().map(|window| {
            EventListener::new(&window, "hashchange", move |_| {
                let fragment = browser::fragment();
                // The address bar now says what the user asked for: what the page meant to
                // write before is out of date.
                {
                    let mut writer = writer.borrow_mut();
                    writer.written = fragment.clone();
                    writer.wanted = None;
                    writer.mark();
                }
                if let Some(page) = Route::parse(&fragment) {
                    route.set(page);
                    return;
                }
                route.set(Route::Playground);
                if !fragment.is_empty() {
                    follow_link(fragment, dispatch.clone());
                }
            })
        });
        move || drop(listener)
    });
}

/// Whether the link names a built-in scenario whose file is not loaded yet.
fn waits_for_its_scenario(fragment: &str) -> bool {
    [
        link::built_in_named(fragment),
        link::compared_built_in(fragment),
    ]
    .into_iter()
    .flatten()
    .any(|id| library::loaded(id).is_none())
}

/// Opens the moment a link describes, once the built-in scenarios it names (the one it shows,
/// and the one it compares with) have loaded.
fn follow_link(fragment: String, dispatch: Callback<Action>) {
    let (shown, compared) = (
        link::built_in_named(&fragment),
        link::compared_built_in(&fragment),
    );
    let restore = move || match link::decode(&fragment) {
        Ok(moment) => Action::Restore(Box::new(moment)),
        Err(e) => Action::Report(format!("This link cannot be opened: {e}")),
    };
    library::with_files_of_link(shown, compared, dispatch, restore);
}

/// The playground a visit starts with: the moment in the URL, or the default scenario with a
/// message saying what is wrong with the link.
pub fn initial_playground() -> Playground {
    Playground(initial(&browser::fragment()))
}

fn initial(fragment: &str) -> Rc<lockstep_view::state::Playground> {
    use lockstep_view::state::Playground;
    let default = || Rc::new(Playground::default_scenario());
    if fragment.is_empty() || Route::parse(fragment).is_some() {
        return default();
    }
    if waits_for_its_scenario(fragment) {
        // `use_url_sync` loads it and opens the link; meanwhile the default scenario shows, and
        // the loading notice keeps the URL as the link until then.
        return default().reduce(Action::Loading(
            "Loading the scenario this link names…".to_string(),
        ));
    }
    match link::decode(fragment)
        .map_err(|e| e.to_string())
        .and_then(Playground::restore)
    {
        Ok(restored) => Rc::new(restored),
        Err(problem) => default().reduce(Action::Report(format!(
            "This link cannot be opened ({problem}), so the default scenario is shown."
        ))),
    }
}
