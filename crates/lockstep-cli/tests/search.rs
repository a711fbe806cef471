//! `lockstep-cli search`: the counterexample it writes is a scenario file that `lockstep-cli
//! run` replays to the same violation; fencing on gives none within the bounds; bad input is
//! named.

use std::path::PathBuf;
use std::process::{Command, Output};

fn cli(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lockstep-cli"))
        .args(arguments)
        .output()
        .expect("the binary runs")
}

fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("search-{name}"))
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).expect("JSON output")
}

#[test]
fn the_counterexample_file_replays_to_the_same_violation() {
    let file = scratch("s1.json");
    let path = file.to_str().expect("a UTF-8 path");
    let output = cli(&[
        "search",
        "s1-gc-pause-unfenced",
        "--invariant",
        "no_stale_write",
        "--faults",
        "1",
        "--out",
        path,
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let output = json(&output);
    let status = &output["found"];
    assert!(status.is_object(), "{output}");
    let first_event = status["first_event"].as_u64().expect("an index") as usize;
    assert_eq!(status["length"].as_u64(), Some(first_event as u64 + 1));

    let replay = cli(&["run", path, "--format", "json"]);
    assert_eq!(replay.status.code(), Some(0), "{}", stderr(&replay));
    let trace = json(&replay);
    let events = trace["events"].as_array().expect("events");
    let breaks = |event: &serde_json::Value| {
        event["violated"]
            .as_array()
            .is_some_and(|v| v.iter().any(|i| i == "no_stale_write"))
    };
    assert_eq!(events.iter().position(breaks), Some(first_event));
}

#[test]
fn with_fencing_on_there_is_none_within_the_bounds() {
    let output = cli(&[
        "search",
        "s2-gc-pause-fenced",
        "--invariant",
        "no_stale_write",
        "--faults",
        "1",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("none within the bounds: ") && text.contains(" states explored"),
        "{text}"
    );
    // The same search on S1, whose register checks no tokens, finds one.
    let unfenced = cli(&[
        "search",
        "s1-gc-pause-unfenced",
        "--invariant",
        "no_stale_write",
    ]);
    assert!(
        stdout(&unfenced).contains("found: the shortest run that breaks it has "),
        "{}",
        stdout(&unfenced)
    );
}

#[test]
fn a_search_configuration_file_is_read_with_its_own_faults() {
    let scenario = include_str!("../../../scenarios/s1-gc-pause-unfenced.json");
    let config = format!(
        r#"{{"base": {scenario}, "invariant": "one_believer",
            "faults": {{"max": 1, "pauses": [2000]}},
            "bounds": {{"step_ms": 100, "max_events": 40}}}}"#
    );
    let file = scratch("config.json");
    std::fs::write(&file, config).expect("writable");
    let output = cli(&["search", file.to_str().expect("UTF-8"), "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // S1's own pause stays in a configuration's base, so it breaks with no fault added.
    let output = json(&output);
    let status = &output["found"];
    assert!(status.is_object(), "{output}");
    let interventions = status["scenario"]["interventions"]
        .as_array()
        .expect("a list");
    assert_eq!(interventions.len(), 1, "{status}");
}

#[test]
fn bad_input_is_named_and_exits_2() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["search", "s1-gc-pause-unfenced"],
            "a scenario needs --invariant <id>",
        ),
        (
            &[
                "search",
                "s1-gc-pause-unfenced",
                "--invariant",
                "two_holders",
            ],
            "--invariant: \"two_holders\" is not one of one_believer,",
        ),
        (
            &[
                "search",
                "s1-gc-pause-unfenced",
                "--invariant",
                "one_lease",
                "--faults",
                "x",
            ],
            "--faults: \"x\" is not a whole number",
        ),
        (
            &[
                "search",
                "s1-gc-pause-unfenced",
                "--invariant",
                "one_lease",
                "--faults",
                "9",
            ],
            "faults.max: at most 4 faults can be searched, not 9",
        ),
        (
            &["search", "s16-consensus-herd", "--invariant", "one_lease"],
            "base.clients: the search takes 1 to 3 clients",
        ),
    ];
    for (arguments, message) in cases {
        let output = cli(arguments);
        assert_eq!(output.status.code(), Some(2), "{arguments:?}");
        assert!(
            stderr(&output).contains(message),
            "{arguments:?}: {}",
            stderr(&output)
        );
    }
    let file = scratch("bad-config.json");
    std::fs::write(
        &file,
        r#"{"base": {}, "invariant": "no_stale_write", "faults": {"max": 1}}"#,
    )
    .expect("writable");
    let output = cli(&["search", file.to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("base"), "{}", stderr(&output));
}
