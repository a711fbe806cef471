//! The playground as Yew holds it: the pure state and its one reducer
//! (`lockstep_view::state`) behind Yew's `Reducible`. Everything else this module names is the
//! pure module's, re-exported so that components say `crate::state::Action`.

pub use lockstep_view::state::*;
use std::ops::Deref;
use std::rc::Rc;
use yew::Reducible;

/// [`lockstep_view::state::Playground`] adapted to `use_reducer`: it derefs to it.
#[derive(Clone, PartialEq)]
pub struct Playground(pub Rc<lockstep_view::state::Playground>);

impl Playground {
    /// The built-in scenario the app opens with.
    pub fn default_scenario() -> Playground {
        Playground(Rc::new(lockstep_view::state::Playground::default_scenario()))
    }
}

impl Deref for Playground {
    type Target = lockstep_view::state::Playground;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl crate::platform::load_actions::Actions for Action {
    fn loading(what: String) -> Action {
        Action::Loading(what)
    }

    fn failed(why: String) -> Action {
        Action::Report(why)
    }

    fn import(text: String, named: Option<Rc<lockstep_sim::scenario::types::Scenario>>) -> Action {
        Action::Import(text, named)
    }
}

impl Reducible for Playground {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = Rc::clone(&self.0).reduce(action);
        // The same `Rc` when nothing changed: Yew skips the re-render.
        if Rc::ptr_eq(&next, &self.0) {
            self
        } else {
            Rc::new(Playground(next))
        }
    }
}
