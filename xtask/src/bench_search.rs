//! `cargo xtask bench`'s counterexample-search block: states explored per second by Lockstep's
//! breadth-first search natively and by Stateright's breadth-first checker on the same space
//! (`cargo bench -p lockstep-stateright`, whose header says what the Stateright model is).

use crate::bench_record::{Layout, Record};
use crate::error::Error;
use crate::process::say;
use crate::workspace::Workspace;

/// The native rates, Lockstep's and Stateright's, as one table.
pub fn native(workspace: &Workspace, record: &mut Record) -> Result<(), Error> {
    say(
        "measuring the counterexample search against Stateright (cargo bench -p lockstep-stateright)",
    );
    record.run(
        "The counterexample search natively beside Stateright",
        Layout::Aligned,
        workspace.cargo().args([
            "bench",
            "-p",
            "lockstep-stateright",
            "--bench",
            "search_rate",
        ]),
    )
}
