//! The embed's state as Yew holds it: the pure state and reducer
//! (`lockstep_view::embed::state`) behind Yew's `Reducible`.

use crate::state::Action;
pub use lockstep_view::embed::state::*;
use lockstep_view::link::embed::Excerpt;
use std::ops::Deref;
use std::rc::Rc;
use yew::Reducible;

/// [`lockstep_view::embed::state::EmbedState`] adapted to `use_reducer`: it derefs to it.
pub struct EmbedState(pub Rc<lockstep_view::embed::state::EmbedState>);

impl EmbedState {
    /// The embed while its scenario's file is on its way.
    pub fn loading(excerpt: Excerpt, at: Option<usize>) -> EmbedState {
        EmbedState(Rc::new(lockstep_view::embed::state::EmbedState::loading(
            excerpt, at,
        )))
    }

    /// The embed after `action`, before it is ever drawn: a run whose scenario is in hand opens
    /// in the first render.
    pub fn after(self, action: Action) -> EmbedState {
        EmbedState(self.0.reduce(action))
    }
}

impl Deref for EmbedState {
    type Target = lockstep_view::embed::state::EmbedState;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl Reducible for EmbedState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = Rc::clone(&self.0).reduce(action);
        // The same `Rc` when nothing changed: Yew skips the re-render.
        if Rc::ptr_eq(&next, &self.0) {
            self
        } else {
            Rc::new(EmbedState(next))
        }
    }
}
