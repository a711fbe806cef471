//! The build's render (issue 41, decision 43): a page of the app rendered natively, at build
//! time, by the same components the wasm runs, through `yew::LocalServerRenderer`. `cargo xtask
//! dist` runs it (`src/bin/lockstep-render.rs`) and writes each page into `dist/`; the wasm then
//! renders the same page over it.
//!
//! Only with the `ssr` feature, never in the wasm. It must not carry a second renderer: what a
//! page shows is the app's own components at the page's address; this module only says which
//! pages there are ([`pages`], [`embeds`]), puts a rendered page into the site's HTML
//! ([`shell`]) and tells the host script which embeds have a document ([`host_script`]).

pub mod embeds;
pub mod host_script;
pub mod pages;
pub mod shell;

use crate::{App, AppProps};
use lockstep_view::link::route::Route;
use lockstep_view::split::Feature;
use std::fmt;
use yew::LocalServerRenderer;

/// Why a page could not be rendered.
#[derive(Debug)]
pub enum RenderError {
    /// The render's thread or its runtime failed: the message says which page.
    Failed { address: String, why: String },
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::Failed { address, why } => {
                write!(f, "rendering the page at #{address} failed: {why}")
            }
        }
    }
}

impl std::error::Error for RenderError {}

/// The binary the page loader (`assets/boot.js`) starts for the page at `address`: the full
/// app for a page only it has (`Feature::of_route`), the embed's for an embed's moment, else
/// the story's.
pub fn binary_of(address: &str) -> &'static str {
    let route = Route::parse(address);
    match (&route, route.as_ref().and_then(Feature::of_route)) {
        (_, Some(_)) => "lockstep-full",
        (Some(Route::Embed(_)), None) => "lockstep-embed",
        _ => "lockstep",
    }
}

/// The markup of the app at `address` (a fragment's text, `lockstep_view::link`), as its first
/// render in the browser draws it. Each page renders on a thread of its own, as each page of
/// the site starts a wasm of its own: what the app keeps per visit (the files loaded, the
/// glossary's ids) starts afresh for every page.
pub fn page(address: &str) -> Result<String, RenderError> {
    at(address, &lockstep_view::link::path::locate(address).path)
}

/// The markup of the app at `address` for a page that lives at `path` (from the site's root):
/// an embed's document lives at a path of its own (`embed/<id>/at=3/`), where its links are
/// written from.
pub fn at(address: &str, path: &str) -> Result<String, RenderError> {
    let failed = |why: String| RenderError::Failed {
        address: address.to_owned(),
        why,
    };
    let (owned, path) = (address.to_owned(), path.to_owned());
    std::thread::spawn(move || {
        let props = AppProps {
            address: owned.into(),
            path: path.into(),
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .map_err(|e| e.to_string())?;
        // No hydration comments: the wasm renders over the page rather than adopting it.
        let render = LocalServerRenderer::<App>::with_props(props)
            .hydratable(false)
            .render();
        Ok(tokio::task::LocalSet::new().block_on(&runtime, render))
    })
    .join()
    .map_err(|_| failed("the render panicked".to_owned()))?
    .map_err(failed)
}
