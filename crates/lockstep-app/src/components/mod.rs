//! The widgets several pages (and the embed) share: the timeline, the stage, the controls, the
//! inspector, the legend, the narration, the menu, the disclosure, the glossary's terms, the
//! fencing switch, the handover, the monitor's plots and the theme. Each renders part of a
//! [`crate::state::Playground`] and dispatches [`crate::state::Action`]s; none of them mutates
//! anything else. What must not live here: a page, or a part only one page shows (that lives
//! with its page under `crate::pages`).

pub mod controls;
pub mod disclosure;
pub mod fencing_switch;
pub mod glossary;
pub mod handoff;
pub mod inspector;
pub mod legend;
pub mod link_problem;
pub mod menu;
pub mod monitor;
pub mod narration;
pub mod stage;
pub mod theme;
pub mod timeline;
pub mod timeline_shapes;

use std::ops::Deref;
use std::rc::Rc;

/// A shared value passed to a component, equal only to itself: comparing two runs or layouts
/// field by field on every render would cost more than drawing them.
#[derive(Debug)]
pub struct Shared<T>(pub Rc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Rc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The playground as it stands whenever it is read, for a component that reads it in its
/// callbacks (an export, a link to copy) and renders again only when the narrower props beside
/// it change. Equal to any other: every handle reads the current state, so an older one serves
/// as well as a newer one, and a Step must not render such a component again.
#[derive(Clone)]
pub struct Current(pub yew::UseReducerHandle<crate::state::Playground>);

impl PartialEq for Current {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Deref for Current {
    type Target = crate::state::Playground;
    fn deref(&self) -> &crate::state::Playground {
        &self.0
    }
}
