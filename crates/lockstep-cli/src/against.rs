//! `lockstep-cli run <scenario> --against <service>`: the scenario on its own lock service and
//! its twin on another, with the interventions carried by role. Prints both verdicts in one
//! line, then what each intervention became (mapped, with the roles, or not carried, with the
//! reason); `--format json` prints the verdict line and the whole [`Twin`] (its `scenario_b`
//! replays the twin with `lockstep-cli run`). It parses no arguments and reads no files.

use crate::args::Format;
use crate::error::CliError;
use crate::source::Source;
use lockstep_sim::Scenario;
use lockstep_sim::analysis::against::Carried;
use lockstep_sim::analysis::against::Carry;
use lockstep_sim::analysis::against::Target;
use lockstep_sim::analysis::against::Twin;
use lockstep_sim::analysis::against::against;
use lockstep_sim::analysis::chaos::ChaosBackend;

pub fn run(
    source: &Source,
    mut scenario: Scenario,
    service: ChaosBackend,
    seed: Option<u64>,
    format: Format,
) -> Result<String, CliError> {
    if let Some(seed) = seed {
        scenario.seed = seed;
    }
    let twin = against(&scenario, &[], service).map_err(|e| CliError::Scenario {
        origin: source.describe(),
        reason: e.to_string(),
    })?;
    Ok(match format {
        Format::Json => {
            // The verdict line beside the data it was computed from.
            let export = serde_json::json!({
                "verdict": twin.verdict_line(),
                "seed": scenario.seed,
                "twin": &twin,
            });
            serde_json::to_string_pretty(&export).unwrap_or_default() + "\n"
        }
        Format::Text => text(&scenario, &twin),
    })
}

fn text(scenario: &Scenario, twin: &Twin) -> String {
    let mut out = format!(
        "{} (seed {})\nagainst: {}\nverdict: {}\n",
        scenario.title,
        scenario.seed,
        twin.service_b.label(),
        twin.verdict_line()
    );
    let mapped: Vec<&Carried> = twin.mapped().collect();
    let unmapped: Vec<&Carried> = twin.unmapped().collect();
    if !mapped.is_empty() {
        out.push_str("carried by role:\n");
        for carried in mapped {
            if let Carry::Mapped { intervention } = &carried.onto_b {
                out.push_str(&format!(
                    "  at {} ms: {}{} -> {}{}\n",
                    carried.on_a.at_ms.0,
                    carried.on_a.action,
                    roles(&carried.roles, twin.service_a),
                    intervention.action,
                    roles(&carried.roles_b, twin.service_b)
                ));
            }
        }
    }
    if !unmapped.is_empty() {
        out.push_str("no counterpart:\n");
        for carried in unmapped {
            if let Carry::NoCounterpart { reason } = &carried.onto_b {
                out.push_str(&format!(
                    "  at {} ms: {}{}: {reason}\n",
                    carried.on_a.at_ms.0,
                    carried.on_a.action,
                    roles(&carried.roles, twin.service_a)
                ));
            }
        }
    }
    for dropped in &twin.settings_dropped {
        out.push_str(&format!("not carried: {dropped}\n"));
    }
    out
}

/// " (one of Redlock's nodes, a minority, which granted …)": the roles of the service nodes
/// an intervention names, in the words of the service they belong to.
fn roles(roles: &[Target], service: ChaosBackend) -> String {
    let service: Vec<String> = roles
        .iter()
        .filter(|role| matches!(role, Target::Service { .. }))
        .map(|role| role.describe(service))
        .collect();
    if service.is_empty() {
        String::new()
    } else {
        format!(" ({})", service.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use crate::run;

    fn cli(line: &str) -> Result<String, crate::error::CliError> {
        run(line.split_whitespace().map(String::from).collect())
    }

    #[test]
    fn redlock_against_consensus_prints_both_verdicts_and_the_mapping() {
        let output = cli("run s10-redlock-clock-jump --against consensus").expect("runs");
        assert!(
            output.contains(
                "verdict: Redlock, 5 nodes: two clients believed they held the lock from 550 \
                 ms; Consensus, 3 replicas: never\n"
            ),
            "{output}"
        );
        assert!(
            output.contains(
                "  at 300 ms: jump redis-c's clock forward by 15000 ms (one of Redlock's nodes, a \
                 minority, which granted the current holder its lease) -> jump etcd-2's clock \
                 forward by 15000 ms (a follower)\n"
            ),
            "{output}"
        );
    }

    #[test]
    fn the_seed_drives_both_runs() {
        let output = cli("run s10-redlock-clock-jump --against consensus --seed 7").expect("runs");
        assert!(
            output.starts_with(
                "S10 · Redlock and a clock jump on one node: two clients believe they hold the lock (seed 7)\n"
            ),
            "{output}"
        );
        let json = cli("run s10-redlock-clock-jump --against consensus --seed 7 --format json")
            .expect("runs");
        let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        assert_eq!(value["twin"]["scenario_b"]["seed"], 7);
    }

    #[test]
    fn an_intervention_without_a_counterpart_is_listed_with_its_reason() {
        let output = cli("run s10-redlock-clock-jump --against sql-row").expect("runs");
        assert!(output.contains("no counterpart:\n"), "{output}");
        assert!(
            output.contains(
                "  at 300 ms: jump redis-c's clock forward by 15000 ms (one of Redlock's nodes, a \
                 minority, which granted the current holder its lease): a single SQL row has no \
                 minority of nodes to jump a clock on: the twin runs without it\n"
            ),
            "{output}"
        );
    }

    #[test]
    fn json_output_carries_the_twin_whose_scenario_replays() {
        let output =
            cli("run s9-failover-loses-the-lock --against consensus --format json").expect("runs");
        let value: serde_json::Value = serde_json::from_str(&output).expect("JSON");
        assert_eq!(
            value["verdict"],
            "Replicated cache with failover: two clients believed they held the lock from 510 \
             ms; Consensus, 3 replicas: never"
        );
        let scenario_b = serde_json::to_string(&value["twin"]["scenario_b"]).unwrap();
        let path = std::env::temp_dir().join(format!(
            "lockstep-cli-{}-against-twin.json",
            std::process::id()
        ));
        std::fs::write(&path, scenario_b).expect("a temporary file");
        let replayed = run(vec!["run".into(), path.display().to_string()]);
        let _ = std::fs::remove_file(&path);
        let replayed = replayed.expect("the twin replays");
        assert!(replayed.starts_with("S9 · Failover"), "{replayed}");
    }

    #[test]
    fn a_bad_service_is_named_with_the_valid_ones() {
        let error = cli("run s10-redlock-clock-jump --against zookeeper").expect_err("bad id");
        assert!(
            error.to_string().contains(
                "\"zookeeper\" is not a lock service; the services are sql-row, cache, \
                 replicated-cache, data-grid, redlock, consensus"
            ),
            "{error}"
        );
    }
}
