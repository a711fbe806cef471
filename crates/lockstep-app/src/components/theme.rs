//! The theme choice in the navigation bar: light, dark, or the system's (auto). The choice is
//! kept in the browser's local storage and put on `<html data-theme>`; the stylesheet holds both
//! palettes and reads the attribute (auto leaves `prefers-color-scheme` to decide). `index.html`
//! applies the stored choice before the first paint; this only changes it.
//!
//! The control renders "Auto" and shows the theme in use from an effect: the build's render
//! (issue 41) has no page to read it from, and the wasm's first render must match it. On a page
//! the build rendered, index.html's script shows the stored choice before the app runs.

use strum::VariantArray;
use wasm_bindgen::JsCast;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Where the choice is kept (index.html's first script reads the same key).
const STORAGE_KEY: &str = "lockstep-theme";

/// The visitor's theme.
#[derive(Clone, Copy, PartialEq, Eq, Debug, strum::VariantArray)]
pub enum Theme {
    /// The system's choice (`prefers-color-scheme`).
    Auto,
    Light,
    Dark,
}

impl Theme {
    /// The attribute's value and the stored word.
    fn word(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Theme::Auto => "◐ Auto (system)",
            Theme::Light => "☀ Light",
            Theme::Dark => "☾ Dark",
        }
    }

    fn from_word(word: &str) -> Theme {
        Theme::VARIANTS
            .iter()
            .copied()
            .find(|theme| theme.word() == word)
            .unwrap_or(Theme::Auto)
    }
}

fn root() -> Option<web_sys::Element> {
    crate::platform::browser::window()?
        .document()?
        .document_element()
}

/// The theme in use, as index.html's script set it from the stored choice.
fn applied() -> Theme {
    root()
        .and_then(|html| html.get_attribute("data-theme"))
        .map_or(Theme::Auto, |word| Theme::from_word(&word))
}

/// Puts `theme` on the page and keeps it for the next visit. Storage may be refused (a private
/// window, a full quota): the page still changes, for this visit.
fn apply(theme: Theme) {
    if let Some(html) = root() {
        let _ = html.set_attribute("data-theme", theme.word());
    }
    if let Some(storage) =
        crate::platform::browser::window().and_then(|w| w.local_storage().ok().flatten())
    {
        let _ = storage.set_item(STORAGE_KEY, theme.word());
    }
}

#[component]
pub fn ThemeChoice() -> Html {
    let theme = use_state_eq(|| Theme::Auto);
    {
        let theme = theme.clone();
        use_effect_with((), move |_| theme.set(applied()));
    }
    let onchange = {
        let theme = theme.clone();
        Callback::from(move |event: Event| {
            let Some(select) = event
                .target()
                .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
            else {
                return;
            };
            let chosen = Theme::from_word(&select.value());
            apply(chosen);
            theme.set(chosen);
        })
    };
    html! {
        <label class="theme-choice" title="Colour theme: light, dark, or the system's">
            <span class="visually-hidden">{ "Colour theme" }</span>
            <select data-testid="theme" {onchange}>
                { for Theme::VARIANTS.iter().copied().map(|t| html! {
                    <option value={t.word()} selected={t == *theme}>{ t.label() }</option>
                }) }
            </select>
        </label>
    }
}

#[cfg(test)]
mod tests {
    use super::Theme;
    use strum::VariantArray;

    #[test]
    fn each_theme_is_read_back_from_its_word_and_anything_else_is_auto() {
        for &theme in Theme::VARIANTS {
            assert_eq!(Theme::from_word(theme.word()), theme);
        }
        // What index.html's script writes when nothing is stored, and a value from elsewhere.
        assert_eq!(Theme::from_word("auto"), Theme::Auto);
        assert_eq!(Theme::from_word("sepia"), Theme::Auto);
    }
}
