//! The page's keyboard shortcuts, and the sheet that lists them.

use crate::state::{Action, Jump};
use gloo_events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent};
use yew::prelude::*;

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
        let listener = crate::platform::browser::window()
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
