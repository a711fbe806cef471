//! The app's effects, one hook a file: autoplay's timer, pausing when the tab is hidden,
//! keyboard shortcuts, the page's own address, and keeping the URL in step with the playground.
//! Each owns its listener or timer and drops it on cleanup; each only dispatches actions —
//! virtual time always comes from the simulation. When the panels below the story draw the
//! moment shown is `platform::panels_wait`'s.

mod autoplay;
mod keyboard;
mod page_address;
mod pause_when_hidden;
mod url_sync;

pub use autoplay::use_autoplay;
pub use keyboard::{SHORTCUTS, use_keyboard};
pub use page_address::use_page_address;
pub use pause_when_hidden::use_pause_when_hidden;
pub use url_sync::{initial_playground, initial_route, use_url_sync};
