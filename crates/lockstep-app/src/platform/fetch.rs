//! Fetching the site's own data files — a built-in scenario, the guided material — by a URL
//! relative to the page, so the site works from any sub-path and inside an iframe, as Trunk's
//! relative `public_url` does for the wasm itself.
//!
//! What this module must not do: parse what it fetches, or touch the app's state. It gives the
//! file's text, or a [`FetchError`] that says in words what failed.

use std::fmt;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Why a file could not be fetched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FetchError {
    /// No browser window to fetch from.
    NoWindow,
    /// The request did not complete: offline, blocked, or aborted.
    Network,
    /// The server answered with this error status.
    Status(u16),
    /// The answer's body could not be read as text.
    Body,
}

impl fmt::Display for FetchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetchError::NoWindow => f.write_str("there is no browser window to load it in"),
            FetchError::Network => {
                f.write_str("the request did not complete (offline, or blocked)")
            }
            FetchError::Status(404) => f.write_str("the site has no such file (HTTP 404)"),
            FetchError::Status(status) => write!(f, "the site answered HTTP {status}"),
            FetchError::Body => f.write_str("its content could not be read as text"),
        }
    }
}

/// A request under way. It starts when [`request`] is called, so several can be in flight at
/// once and awaited one after another.
pub struct Pending(JsFuture);

/// Starts fetching `path`, relative to the site's root (every page's files are the root's).
pub fn request(path: &str) -> Result<Pending, FetchError> {
    let window = crate::platform::browser::window().ok_or(FetchError::NoWindow)?;
    let address = crate::platform::browser::site_file(path);
    Ok(Pending(JsFuture::from(window.fetch_with_str(&address))))
}

impl Pending {
    /// The file's text once it has arrived.
    pub async fn text(self) -> Result<String, FetchError> {
        let response = self.0.await.map_err(|_| FetchError::Network)?;
        let response: web_sys::Response = response.dyn_into().map_err(|_| FetchError::Body)?;
        if !response.ok() {
            return Err(FetchError::Status(response.status()));
        }
        let body = response.text().map_err(|_| FetchError::Body)?;
        let text = JsFuture::from(body)
            .await
            .map_err(|_| FetchError::Network)?;
        text.as_string().ok_or(FetchError::Body)
    }
}
