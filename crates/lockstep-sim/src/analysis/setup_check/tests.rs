//! The six worked setups of issue 43 (`docs/lock-setups/`), checked by real runs; the format's
//! errors; the mapping's refusals.

use super::*;

fn worked(name: &str) -> LockSetup {
    let path = format!(
        "{}/../../docs/lock-setups/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    LockSetup::parse_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn check(name: &str, runs: u64) -> CheckReport {
    let check = SetupCheck::new(worked(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    check.check(Seeds {
        first: 1,
        count: runs,
    })
}

#[test]
fn explore() {
    for name in [
        "redis-watchdog-unfenced",
        "redis-watchdog-fenced",
        "redlock-clock-steps",
        "etcd-fenced",
        "sql-row-long-pause",
        "version-check-no-lock",
    ] {
        let report = check(name, 100);
        eprintln!(
            "{name}: {:?} {}\n  data {:?} beliefs {:?} stale {:?} unjudged {}",
            report.verdict,
            report.headline,
            report.data,
            report.beliefs,
            report.stale_writes,
            report.unjudged
        );
        eprintln!(
            "  search beliefs {:?}",
            std::mem::discriminant(&report.shortest_beliefs)
        );
        for c in &report.changes {
            eprintln!(
                "  {:?} data {}->{} beliefs {}->{} rec {}",
                c.change,
                c.data_before,
                c.data_after,
                c.beliefs_before,
                c.beliefs_after,
                c.recommended
            );
        }
    }
}
