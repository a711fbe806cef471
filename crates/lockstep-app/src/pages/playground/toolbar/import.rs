//! The "More" menu's import: a scenario or trace file read from the user's disk. A file that
//! cannot be read, like a bad link, becomes a message; the current run stays as it was.

use crate::components::menu;
use crate::platform::{library, text_file};
use crate::state::Action;
use gloo_file::callbacks::FileReader;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The file input's change handler: it closes the menu and reads the chosen file. The reader
/// is kept for as long as the component lives, as dropping it would cancel the read.
#[hook]
pub fn use_import(dispatch: &Callback<Action>, more_menu: &NodeRef) -> Callback<Event> {
    let reader = use_mut_ref(|| None::<FileReader>);
    let dispatch = dispatch.clone();
    let more_menu = more_menu.clone();
    Callback::from(move |event: Event| {
        menu::close(&more_menu);
        let input: HtmlInputElement = event.target_unchecked_into();
        let Some(file) = input.files().and_then(|files| files.get(0)) else {
            return;
        };
        let name = file.name();
        let dispatch = dispatch.clone();
        let task = text_file::read(file, move |text| match text {
            Ok(text) => library::import(text, dispatch.clone()),
            Err(e) => dispatch.emit(Action::Report(format!("{name} cannot be read: {e}"))),
        });
        *reader.borrow_mut() = Some(task);
        input.set_value("");
    })
}
