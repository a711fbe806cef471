//! The actions the library's loaders dispatch ([`super::library`]), as a trait the caller's
//! action type implements: the loaders name no action type, and the playground's action type
//! (`crate::state`) implements this without naming the loaders.
//!
//! What this module must not do: name the playground's `Action` or load anything.

use lockstep_sim::scenario::types::Scenario;
use std::rc::Rc;

/// The actions the loaders dispatch, made by the caller's action type.
pub trait Actions: 'static {
    /// Says what is loading, until the action that needs it arrives.
    fn loading(what: String) -> Self;
    /// Says what could not be loaded; changes nothing else.
    fn failed(why: String) -> Self;
    /// Opens a file's text, with the built-in scenario's file a trace in it names.
    fn import(text: String, named: Option<Rc<Scenario>>) -> Self;
}
