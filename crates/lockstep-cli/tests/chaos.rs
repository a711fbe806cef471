//! `lockstep-cli chaos` as a user runs it: the built binary, its output and exit codes.

use lockstep_sim::analysis::chaos::ChaosReport;
use lockstep_sim::analysis::chaos::ChaosSettings;
use lockstep_sim::analysis::chaos::run_chaos;
use std::process::{Command, Output};

fn cli(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lockstep-cli"))
        .args(arguments)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

const SHORT: [&str; 8] = [
    "--backend",
    "replicated-cache",
    "--fencing",
    "off",
    "--faults",
    "pauses,crashes",
    "--duration",
    "15000",
];

#[test]
fn the_json_is_the_chaos_report_of_the_seeds_asked_for() {
    let mut arguments = vec!["chaos"];
    arguments.extend(SHORT);
    arguments.extend(["--runs", "6", "--seed", "40", "--format", "json"]);
    let output = cli(&arguments);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = ChaosReport::from_json(&stdout(&output)).expect("a chaos report");
    let settings: ChaosSettings =
        "backend=replicated-cache&fencing=off&faults=pauses,crashes&duration=15000"
            .parse()
            .expect("valid settings");
    let mut direct = ChaosReport::new(settings, 40);
    for seed in 40..46 {
        direct.add(&run_chaos(&settings, seed)).expect("in order");
    }
    assert_eq!(report, direct);
    assert!(!report.violating.is_empty(), "fencing off breaks something");
    // Both checks, each under its own name: the article's count and ours.
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(json["format"], 2);
    assert_eq!(
        json["two_accepted_writers"],
        report.two_accepted_writers.unwrap_or(u64::MAX)
    );
    assert!(json["data_lost"].is_u64());
}

#[test]
fn the_output_is_the_same_on_any_number_of_threads() {
    let run = |threads: &str| {
        let mut arguments = vec!["chaos"];
        arguments.extend(SHORT);
        arguments.extend(["--runs", "5", "--threads", threads]);
        stdout(&cli(&arguments))
    };
    let one = run("1");
    assert_eq!(run("3"), one);
    assert!(one.starts_with(
        "Chaos: Replicated cache with failover, fencing off, 8 clients, faults: pauses, \
         lock-service crashes, 15 s of virtual time a run\n5 runs, seeds 1–5\n"
    ));
    assert!(one.contains("\nInvariant "), "{one}");
    assert!(
        one.contains(
            "\nThe article's check (at most one accepted writer at any moment): two accepted \
             writers at one moment in "
        ),
        "{one}"
    );
    assert!(
        one.contains(
            "\nOur data check (stronger: the final value is the accepted increments applied in \
             order, none lost): increments lost in "
        ),
        "{one}"
    );
    assert!(one.contains("\nViolating seeds ("), "{one}");
}

#[test]
fn a_bad_flag_exits_2_and_says_what_is_wrong() {
    let output = cli(&["chaos", "--faults", "gc-pauses"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with(
            "lockstep-cli: chaos: --faults: \"gc-pauses\": \"gc-pauses\" is not a fault"
        ),
        "{stderr}"
    );
    assert_eq!(stdout(&output), "");
}

#[test]
fn a_printed_scenario_replays_with_run_to_the_same_violation() {
    let settings: ChaosSettings =
        "backend=replicated-cache&fencing=off&faults=pauses,crashes&duration=15000"
            .parse()
            .expect("valid settings");
    let (run, first) = (40..46)
        .map(|seed| run_chaos(&settings, seed))
        .find_map(|run| run.first_violation().map(|first| (run, first)))
        .expect("one of seeds 40 to 45 breaks something");
    let seed = run.seed.to_string();
    let mut arguments = vec!["chaos"];
    arguments.extend(SHORT);
    arguments.extend(["--print-scenario", &seed]);
    let output = cli(&arguments);
    assert_eq!(output.status.code(), Some(0));
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("chaos-seed.json");
    std::fs::write(&path, output.stdout).expect("the scratch directory is writable");
    let replay = cli(&[
        "run",
        path.to_str().expect("a UTF-8 path"),
        "--format",
        "json",
    ]);
    assert_eq!(replay.status.code(), Some(0));
    let trace: serde_json::Value = serde_json::from_slice(&replay.stdout).expect("a trace");
    assert_eq!(
        trace["events"].as_array().map(Vec::len),
        usize::try_from(run.events).ok()
    );
    let event = &trace["events"][first.first_event];
    assert_eq!(
        event["broke"][0].as_str(),
        Some(first.invariant.id()),
        "{event}"
    );
    assert_eq!(event["time_ms"].as_u64(), Some(first.first_at.0));
}
