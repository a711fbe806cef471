//! The app's components. Each renders part of a [`crate::state::Playground`] and dispatches
//! [`crate::state::Action`]s; none of them mutates anything else.

pub mod controls;
pub mod inspector;
pub mod scenario_picker;
pub mod trace_list;
