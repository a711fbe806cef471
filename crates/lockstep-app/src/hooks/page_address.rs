//! The page's own address, for links out of the page and for the code that embeds it.

use crate::platform::browser;
use yew::prelude::*;

/// The page's address without its fragment: empty in the first render, then read in an effect.
/// The build's render (issue 41) has no address to read, and the wasm's first render must match
/// it; a link `#…` on the empty address goes to the same page, so it works until then. Only the
/// full app's pages use it (the real runs' embed code).
#[cfg(feature = "full")]
#[hook]
pub fn use_page_address() -> AttrValue {
    let address = use_state_eq(AttrValue::default);
    {
        let address = address.clone();
        use_effect_with((), move |_| {
            let page = browser::link_with("");
            address.set(page.trim_end_matches('#').to_owned().into());
        });
    }
    (*address).clone()
}

/// The link to the app's `fragment` (its page's path and the rest, `browser::link_with`): the
/// bare `#fragment` in the first render, which the build can write too, then the full address,
/// read in an effect.
#[hook]
pub fn use_link_to(fragment: &AttrValue) -> AttrValue {
    let link = use_state_eq(|| AttrValue::from(format!("#{fragment}")));
    {
        let link = link.clone();
        use_effect_with(fragment.clone(), move |fragment| {
            link.set(browser::link_with(fragment).into());
        });
    }
    (*link).clone()
}
