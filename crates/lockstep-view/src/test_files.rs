//! The built-in scenarios' files for the native tests, read from the embedded catalogue: what
//! the app's library hands the reducer once a file has loaded.

use lockstep_sim::scenario::catalogue;
use lockstep_sim::scenario::types::Scenario;
use std::rc::Rc;

/// The built-in scenario `id`'s file, parsed.
pub fn loaded(id: &str) -> Option<Rc<Scenario>> {
    let builtin = catalogue::find(id)?;
    builtin.load().ok().map(Rc::new)
}
