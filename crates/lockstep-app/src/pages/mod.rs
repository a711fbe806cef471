//! The site's pages, one a file, and what they share: the navigation bar, the shortcut sheet,
//! the guided material's loading. [`site`] holds the playground's state and picks the page the
//! route names; the lab's page is `crate::lab::view`, an embed's `crate::embed::view`.

pub mod features;
#[cfg(feature = "full")]
pub mod lesson;
#[cfg(feature = "full")]
pub mod material;
pub mod nav;
pub mod playground;
pub mod shortcuts;
pub mod site;
