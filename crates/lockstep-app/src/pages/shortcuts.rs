//! The keyboard shortcuts' sheet (`?`), a dialog.

use crate::hooks::SHORTCUTS;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ShortcutSheetProps {
    pub on_close: Callback<MouseEvent>,
}

#[component]
pub fn ShortcutSheet(props: &ShortcutSheetProps) -> Html {
    html! {
        <div class="dialog-backdrop">
            <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="help-title" data-testid="shortcuts">
                <h2 id="help-title">{ "Keyboard shortcuts" }</h2>
                <table class="shortcuts"><tbody>
                    { for SHORTCUTS.iter().map(|(key, what)| html! {
                        <tr><th><kbd>{ *key }</kbd></th><td>{ *what }</td></tr>
                    }) }
                </tbody></table>
                <p class="muted">{ "Tab moves between controls; Enter or Space presses the focused one. \
                    On the timeline, lane names and marks are buttons too." }</p>
                <div class="dialog-buttons">
                    <button type="button" class="control primary" onclick={props.on_close.clone()} data-testid="close-shortcuts" autofocus=true>{ "Close" }</button>
                </div>
            </div>
        </div>
    }
}
