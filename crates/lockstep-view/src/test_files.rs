//! The built-in scenarios' files for the native tests, read from the embedded catalogue: what
//! the app's library hands the reducer once a file has loaded.

use crate::state::{Comparison, Moment, Origin};
use lockstep_sim::scenario::catalogue;
use lockstep_sim::scenario::types::Scenario;
use std::rc::Rc;

/// The built-in scenario `id`'s file, parsed.
pub fn loaded(id: &str) -> Option<Rc<Scenario>> {
    let builtin = catalogue::find(id)?;
    builtin.load().ok().map(Rc::new)
}

/// The built-in scenario `id` as it opens, stood at `position`, with no comparison.
pub fn moment(id: &'static str, position: usize) -> Moment {
    let scenario = catalogue::find(id)
        .and_then(|b| b.load().ok())
        .unwrap_or_else(|| panic!("{id} is built in"));
    Moment {
        origin: Origin::BuiltIn(id),
        seed: scenario.seed,
        scenario,
        log: Vec::new(),
        position: Some(position),
        compare: Comparison::Off,
    }
}
