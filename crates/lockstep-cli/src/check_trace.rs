//! `lockstep-cli check-trace <file>`: a recorded history (`docs/history-format.md`), from
//! Lockstep's reality check or converted from another system's logs, judged by the
//! simulation's invariants and its register's history by the linearizability checker. Prints
//! each verdict; exits 1 when the data was harmed, so a script can gate on it.

use crate::error::CliError;
use clap::Args;
use lockstep_sim::analysis::linearizability::{Budget, Verdict, check};
use lockstep_sim::analysis::recorded_verdicts::{JUDGED, judge, register_history};
use lockstep_sim::story::recorded::RecordedHistory;
use lockstep_sim::story::trace_import::ImportedTrace;
use lockstep_sim::vocabulary::invariant::{Concern, InvariantSet};
use lockstep_sim::world::ids::NodeId;
use std::fmt::Write as _;

#[derive(Debug, PartialEq, Eq, Args)]
pub struct CheckTraceArgs {
    /// A recorded history's JSON file.
    #[arg(value_name = "FILE")]
    pub path: String,
}

/// The verdicts, or why the file cannot be read. `Err(CliError::Broken)` carries the verdicts
/// when the data was harmed (a data invariant broke, or the register's history is not
/// linearizable); the lock's own invariants break under any pause, and are only reported.
pub fn run(args: &CheckTraceArgs) -> Result<String, CliError> {
    let text = std::fs::read_to_string(&args.path).map_err(|e| CliError::Read {
        path: args.path.clone(),
        reason: e.to_string(),
    })?;
    let history = RecordedHistory::parse(&text).map_err(|e| CliError::Scenario {
        origin: args.path.clone(),
        reason: if ImportedTrace::parse(&text).is_ok() {
            "this is a trace exported from the simulation, not a recorded history \
             (docs/history-format.md): open it in the page, or `lockstep-cli run` its scenario"
                .to_owned()
        } else {
            e.to_string()
        },
    })?;
    let (report, harmed) = verdicts(&history, None);
    if harmed {
        Err(CliError::Broken(report))
    } else {
        Ok(report)
    }
}

/// The history's verdicts in words: its heading, each invariant (beside the simulation's
/// verdict, when given the invariants the simulation broke), then the register's history; and
/// whether the data was harmed.
pub fn verdicts(history: &RecordedHistory, simulated: Option<InvariantSet>) -> (String, bool) {
    let recorded = &history.recorded;
    let mut text = format!(
        "{}\nrecorded by {} on {} against {}\n\n",
        history.title,
        recorded.by,
        recorded.on,
        recorded.against.join(", ")
    );
    let breaches = judge(history);
    if simulated.is_some() {
        let _ = writeln!(text, "{:<22} {:<10} recorded", "invariant", "simulated");
    }
    for invariant in JUDGED {
        let line = breaches
            .iter()
            .find(|b| b.invariant == invariant)
            .map_or_else(|| "holds".to_owned(), |breach| format!("BROKEN: {breach}"));
        let beside = simulated.map_or_else(String::new, |set| {
            let word = if set.contains(invariant) {
                "BROKEN"
            } else {
                "holds"
            };
            format!("{word:<10} ")
        });
        let _ = writeln!(text, "{:<22} {beside}{line}", invariant.id());
    }
    let register = register_history(history);
    let clients = history.clients();
    let name = |node: NodeId| {
        clients
            .get(usize::from(node.0))
            .map_or_else(|| "?".to_owned(), |c| (*c).to_owned())
    };
    let verdict = check(&register, Budget::DEFAULT);
    let harmed = breaches
        .iter()
        .any(|b| b.invariant.concern() == Concern::Data)
        || matches!(verdict, Verdict::NotLinearizable(_));
    let linearizable = match verdict {
        Verdict::Linearizable { .. } => "linearizable".to_owned(),
        Verdict::NotLinearizable(stuck) => {
            format!("NOT linearizable: {}", stuck.explain(&register, name))
        }
        Verdict::Undecided { visited } => {
            format!("undecided (gave up after {visited} states)")
        }
    };
    let _ = writeln!(
        text,
        "\n{}'s history ({} reads and accepted writes): {linearizable}",
        history.resource,
        register.operations.len()
    );
    let data = if harmed { "HARMED" } else { "safe" };
    let _ = writeln!(text, "the data: {data}");
    (text, harmed)
}
