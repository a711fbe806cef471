//! What the full binary's pages (or the story's stand-ins) take from the site.

#[cfg(feature = "full")]
use crate::state::{Action, Playground};
use lockstep_view::link::route::Route;
use yew::prelude::*;

/// The dialog a handover opens on arrival: the builder.
pub const BUILDER: &str = "builder";

/// What such a page may need from the site.
pub struct Context {
    #[cfg(feature = "full")]
    pub playground: UseReducerHandle<Playground>,
    #[cfg(feature = "full")]
    pub dispatch: Callback<Action>,
    pub navigate: Callback<Route>,
    /// The playground's link (its moment), which a handover keeps.
    #[cfg(not(feature = "full"))]
    pub playground_link: Option<AttrValue>,
}
