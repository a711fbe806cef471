//! The site's pages, one a file or a folder, and what they share: the navigation bar, the
//! shortcut sheet, the guided material's loading. Each routed page's parts live with it: the
//! playground's ([`playground`]), the lessons' player ([`lessons`]), the knowledge check
//! ([`quiz`]), the deck, the guide, the sources, the real runs ([`real_runs`]), the first
//! visit's guided start ([`first_run`]), a returning visitor's way back in ([`welcome_back`]) and the builder's dialog ([`builder`]). [`site`] holds the playground's state and picks the page the
//! route names; the lab's page is `crate::lab::view`, an embed's `crate::embed::view`.

#[cfg(feature = "full")]
pub mod builder;
#[cfg(feature = "full")]
pub mod deck;
pub mod features;
pub mod first_run;
#[cfg(feature = "full")]
pub mod guide;
#[cfg(feature = "full")]
pub mod lesson;
#[cfg(feature = "full")]
pub mod lessons;
#[cfg(feature = "full")]
pub mod material;
pub mod nav;
pub mod playground;
#[cfg(feature = "full")]
pub mod quiz;
#[cfg(feature = "full")]
pub mod real_runs;
pub mod shortcuts;
pub mod site;
pub mod sources;
pub mod welcome_back;
