//! The page's own address, for links out of the page and for the code that embeds it.

use crate::link::use_here;
use crate::platform::browser;
use yew::prelude::*;

/// The link to the app's `fragment` (its page's path and the rest, `browser::link_with`): in the
/// first render, which the build writes too, relative to the page shown (`crate::link::Here`),
/// so that it leads there before the app runs; then the full address, read in an effect.
#[hook]
pub fn use_link_to(fragment: &AttrValue) -> AttrValue {
    let here = use_here();
    let link = use_state_eq(|| AttrValue::from(here.href(fragment)));
    {
        let link = link.clone();
        use_effect_with(fragment.clone(), move |fragment| {
            link.set(browser::link_with(fragment).into());
        });
    }
    (*link).clone()
}
