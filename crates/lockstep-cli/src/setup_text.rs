//! A check-setup report as text: the verdict, the counts, the shortest failing runs with their
//! faults, the changes measured, the lessons and what the check cannot see. It must not run
//! anything: it words a finished report.

use lockstep_sim::analysis::setup_check::{Broken, CheckReport, Shortest};
use std::fmt::Write as _;

pub fn report_text(path: &str, report: &CheckReport) -> String {
    let mut out = format!("Check of {path}\n\n{}\n\n", report.headline);
    let last = report.first_seed + report.runs.saturating_sub(1);
    let _ = writeln!(
        out,
        "{} runs (seeds {}–{last}), each {} ms of virtual time:",
        report.runs, report.first_seed, report.run_ms.0
    );
    let rows = [
        ("beliefs: two clients held the lock at once", report.beliefs),
        (report.harm.happened(), report.data),
        ("a stale write was accepted", report.stale_writes),
    ];
    for (what, broken) in rows {
        let _ = writeln!(out, "  {:<44} {}", what, runs(broken, report.runs));
    }
    if report.unjudged > 0 {
        let _ = writeln!(out, "  {} runs could not be judged", report.unjudged);
    }
    let _ = writeln!(
        out,
        "  (open one: lockstep-cli check-setup {path} --print-run SEED > run.json; lockstep-cli run run.json)\n"
    );
    shortest(&mut out, "beliefs", &report.shortest_beliefs);
    shortest(&mut out, "data", &report.shortest_data);
    changes(&mut out, report);
    out.push_str("Lessons:\n");
    for lesson in &report.lessons {
        let _ = writeln!(out, "  {} — {}", lesson.lesson, lesson.why);
    }
    out.push_str("\nWhat this check cannot see:\n");
    for limit in &report.cannot_see {
        let _ = writeln!(out, "  - {limit}");
    }
    out
}

fn runs(broken: Broken, of: u64) -> String {
    match broken.first_seed {
        Some(seed) => format!("{} of {of} runs (first: seed {seed})", broken.runs),
        None => format!("0 of {of} runs"),
    }
}

fn shortest(out: &mut String, promise: &str, found: &Shortest) {
    let _ = write!(out, "Shortest run breaking the {promise}: ");
    match found {
        Shortest::Found { run } => {
            let _ = writeln!(out, "{} events; the search struck:", run.length);
            for intervention in &run.scenario.interventions {
                let _ = writeln!(
                    out,
                    "  at {} ms: {}",
                    intervention.at_ms.0, intervention.action
                );
            }
            let _ = writeln!(
                out,
                "  (its scenario is in the --json report, under shortest_{promise}.run.scenario)"
            );
        }
        Shortest::NoneWithinBounds { states } => {
            let _ = writeln!(
                out,
                "none within the search's bounds ({states} states explored)"
            );
        }
        Shortest::GaveUp { states } => {
            let _ = writeln!(
                out,
                "none found before the search's budget ({states} states)"
            );
        }
        Shortest::NoFaults => {
            let _ = writeln!(out, "not searched: the setup allows no fault");
        }
    }
    out.push('\n');
}

fn changes(out: &mut String, report: &CheckReport) {
    if report.changes.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "Changes, each measured on the same {} runs with the same faults:",
        report.runs
    );
    let _ = writeln!(
        out,
        "  {:<14} {:<18} change",
        "data harmed", "beliefs overlapped"
    );
    for change in &report.changes {
        let _ = writeln!(
            out,
            "  {:<14} {:<18} {}{}",
            format!("{} → {}", change.data_before, change.data_after),
            format!("{} → {}", change.beliefs_before, change.beliefs_after),
            change.label,
            if change.recommended {
                "  ← recommended"
            } else {
                ""
            }
        );
    }
    if report.no_single_change_suffices {
        out.push_str("  No single change removes the failure.\n");
    }
    out.push('\n');
}
