//! The document's title, following the page shown. The build wrote each page's first title
//! (`render::pages`); the app moves between pages in place (`use_links_in_place`, Back and
//! Forward), so it sets `document.title` to the same words (`lockstep_view::title`) for the page
//! it moves to. Only in an effect: nothing reads or writes the browser while rendering
//! (decision 43).

use crate::platform::browser;
use yew::prelude::*;

/// Sets `document.title` to `title` when it changes.
#[hook]
pub fn use_page_title(title: String) {
    use_effect_with(title, |title| browser::set_title(title));
}
