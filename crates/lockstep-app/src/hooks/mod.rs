//! The app's effects, one hook a file: autoplay's timer, pausing when the tab is hidden,
//! keyboard shortcuts, the page's own address, keeping the URL in step with the playground,
//! following the links between pages in place, where a page opens, and the document's title.
//! Each owns its listener or timer and drops it on cleanup; each only dispatches actions —
//! virtual time always comes from the simulation. When the panels below the story draw the
//! moment shown is `platform::panels_wait`'s.

mod autoplay;
mod keyboard;
mod landing;
mod links_in_place;
mod page_address;
mod page_title;
mod pause_when_hidden;
mod url_sync;

pub use autoplay::use_autoplay;
pub use keyboard::{SHORTCUTS, use_keyboard};
pub use landing::use_landing;
pub use links_in_place::use_links_in_place;
pub use page_address::use_link_to;
pub use page_title::use_page_title;
pub use pause_when_hidden::use_pause_when_hidden;
pub use url_sync::{initial_playground, initial_route, use_url_sync};
