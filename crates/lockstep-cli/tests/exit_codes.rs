//! The built binary's exit codes: 0 when every expectation holds, 1 naming each failed
//! expectation, 2 for a usage or input error with a message saying what is wrong.

use std::path::PathBuf;
use std::process::{Command, Output};

const S2: &str = include_str!("../../../scenarios/s2-gc-pause-fenced.json");

fn cli(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lockstep-cli"))
        .args(arguments)
        .output()
        .expect("the binary runs")
}

/// Writes `text` to a scenario file of its own in the test target's scratch directory.
fn scenario_file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("exit-codes-{name}.json"));
    std::fs::write(&path, text).expect("the scratch directory is writable");
    path
}

fn run_file(name: &str, text: &str) -> Output {
    let path = scenario_file(name, text);
    cli(&["run", path.to_str().expect("a UTF-8 path")])
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_run_whose_expectations_hold_exits_0_with_the_trace() {
    let output = run_file("holds", S2);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("rejects client-a's write with token 33"),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("hash "))
    );
    assert_eq!(stderr(&output), "");
}

#[test]
fn a_failed_expectation_exits_1_and_is_named() {
    let wrong = S2.replace(
        r#"{ "expect": "final_value", "value": 1 }"#,
        r#"{ "expect": "final_value", "value": 2 }"#,
    );
    assert_ne!(wrong, S2, "the test changed the expectation");
    let output = run_file("fails", &wrong);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        "1 expectation(s) failed:\n  ✗ expected the resource to end with 2, but it holds 1\n"
    );
    assert!(!output.stdout.is_empty(), "the trace is still printed");
}

#[test]
fn every_failed_expectation_is_listed() {
    let wrong = S2
        .replace(r#""value": 1 }"#, r#""value": 7 }"#)
        .replace(r#""result": "fenced""#, r#""result": "done""#);
    let output = run_file("fails-twice", &wrong);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(
        message.starts_with("2 expectation(s) failed:\n"),
        "{message}"
    );
    assert!(message.contains("  ✗ expected client-a to end done, but it ended fenced\n"));
    assert!(message.contains("  ✗ expected the resource to end with 7, but it holds 1\n"));
}

#[test]
fn check_accepts_a_valid_file_with_exit_0() {
    let path = scenario_file("check", S2);
    let output = cli(&["check", path.to_str().expect("a UTF-8 path")]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains(": ok (S2 · "));
}

#[test]
fn usage_errors_exit_2_and_say_what_is_wrong() {
    for (arguments, says) in [
        (&[][..], "lockstep-cli: no command given\n"),
        (&["fly"][..], "lockstep-cli: unknown command \"fly\"\n"),
        (
            &["run"][..],
            "lockstep-cli: `run` needs a scenario file or built-in id\n",
        ),
        (
            &["run", "s2-gc-pause-fenced", "--seed", "x"][..],
            "lockstep-cli: --seed: \"x\" is not a whole number",
        ),
        (
            &["run", "s2-gc-pause-fenced", "--format", "xml"][..],
            "lockstep-cli: --format: \"xml\" is not one of text, json\n",
        ),
    ] {
        let output = cli(arguments);
        assert_eq!(output.status.code(), Some(2), "{arguments:?}");
        let message = stderr(&output);
        assert!(message.starts_with(says), "{arguments:?}: {message}");
        assert!(message.contains("usage:"), "the usage follows: {message}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn input_errors_exit_2_and_name_the_place() {
    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-such-scenario.json");
    let output = cli(&["run", missing.to_str().expect("a UTF-8 path")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).starts_with(&format!(
        "lockstep-cli: cannot read {}: ",
        missing.display()
    )));

    let output = cli(&["run", "no-such-built-in"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "lockstep-cli: no-such-built-in: no such built-in scenario (see `lockstep-cli list`) and no such file\n"
    );

    let broken = S2.replace(
        r#""ttl_ms": 1000, "work_ms": 200, "access": { "kind": "read_modify_write" } },"#,
        r#""ttl_ms": "long", "work_ms": 200, "access": { "kind": "read_modify_write" } },"#,
    );
    assert_ne!(broken, S2, "the test broke the file");
    let path = scenario_file("broken", &broken);
    let output = cli(&["run", path.to_str().expect("a UTF-8 path")]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.starts_with(&format!("lockstep-cli: {}: ", path.display())),
        "{message}"
    );
    let line = 1 + broken
        .lines()
        .position(|l| l.contains(r#""ttl_ms": "long""#))
        .expect("the broken line is in the file");
    assert!(
        message.contains(&format!("line {line},")) && message.contains("clients[0].ttl_ms"),
        "the error names line {line} and the field: {message}"
    );
    assert!(output.stdout.is_empty(), "nothing is run");

    let unknown = S2.replace(r#""by": "client-b""#, r#""by": "client-z""#);
    let output = run_file("unknown-client", &unknown);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("client-z"), "{}", stderr(&output));
}

fn setup(name: &str) -> String {
    format!(
        "{}/../../docs/lock-setups/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn check_setup_exits_1_when_data_can_be_lost_and_0_when_it_cannot() {
    let lost = cli(&["check-setup", &setup("sql-row-long-pause"), "--runs", "8"]);
    assert_eq!(lost.status.code(), Some(1), "{}", stderr(&lost));
    let text = String::from_utf8_lossy(&lost.stdout);
    assert!(text.contains("Your data can be lost: in "), "{text}");
    let kept = cli(&[
        "check-setup",
        &setup("version-check-no-lock"),
        "--runs",
        "5",
    ]);
    assert_eq!(kept.status.code(), Some(0), "{}", stderr(&kept));
}

#[test]
fn check_setup_exits_2_naming_what_is_wrong() {
    let path = scenario_file("bad-setup", r#"{"format": 1, "ttl_ms": 0}"#);
    let output = cli(&["check-setup", path.to_str().expect("a UTF-8 path")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("ttl_ms: 0 ms is out of range"),
        "{}",
        stderr(&output)
    );
}
