//! The browser's services: fetching the site's files, handing the page to the full binary, the cache of loaded scenarios and
//! material, the URL, downloads and the clipboard, reading a chosen file as text, watching what is in view, bringing the
//! timeline into view after a link opened it, and the benchmark's
//! wasm exports (only with the `bench-exports` feature). Code here hands its results to callbacks: it never names the playground's
//! `Action`, and it decides nothing about what the page shows.

pub mod browser;
pub mod fetch;
pub mod handoff;
pub mod library;
pub mod load_actions;
pub mod mount;
pub mod panels_wait;
pub mod reveal;
#[cfg(any(test, feature = "bench-exports"))]
pub mod speed;
pub mod text_file;
