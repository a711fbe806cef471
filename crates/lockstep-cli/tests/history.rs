//! `check-trace` and `real` as a user runs them: a recorded history's verdicts and exit code,
//! the words for a file that is not one, and `real`'s refusals before any server starts. The
//! tests that play for real (and start Debian's servers) need `--features real`; without it,
//! `real` says how to get a build that has it.

use std::path::PathBuf;
use std::process::{Command, Output};

const EXAMPLE: &str = include_str!("../../../docs/examples/history-gc-pause.json");

fn cli(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lockstep-cli"))
        .args(arguments)
        .output()
        .expect("the binary runs")
}

fn file(name: &str, text: &str) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("history-{name}.json"));
    std::fs::write(&path, text).expect("the scratch directory is writable");
    path.to_string_lossy().into_owned()
}

fn out(output: &Output) -> (Option<i32>, String, String) {
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_fenced_history_is_safe_with_its_lock_invariant_broken() {
    let (code, stdout, stderr) = out(&cli(&["check-trace", &file("fenced", EXAMPLE)]));
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains("one_believer           BROKEN: client-2 was granted the lock at 1202 ms"),
        "{stdout}"
    );
    assert!(stdout.contains("no_stale_write         holds"), "{stdout}");
    assert!(
        stdout.contains("linearizable\nthe data: safe\n"),
        "{stdout}"
    );
}

/// The same history with the zombie's write accepted: a stale write and a lost update, so it
/// exits 1.
#[test]
fn an_unfenced_history_exits_1_with_the_harm_named() {
    let unfenced = EXAMPLE.replacen(
        "\"token\": 33, \"value\": 1, \"accepted\": false",
        "\"token\": 33, \"value\": 1, \"accepted\": true",
        1,
    );
    let (code, stdout, _) = out(&cli(&["check-trace", &file("unfenced", &unfenced)]));
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("no_stale_write         BROKEN: client-1's write was accepted at 1502 ms"),
        "{stdout}"
    );
    assert!(stdout.contains("no_lost_update         BROKEN"), "{stdout}");
    assert!(stdout.ends_with("the data: HARMED\n"), "{stdout}");
}

#[test]
fn what_is_not_a_history_is_said_with_where() {
    let broken = EXAMPLE.replacen("\"answered_ms\": 4, \"value\": 0", "\"answered_ms\": 4", 1);
    let (code, _, stderr) = out(&cli(&["check-trace", &file("broken", &broken)]));
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("operations[1].value: a read answered at 4 ms needs \"value\""),
        "{stderr}"
    );
    let trace = cli(&["run", "s2-gc-pause-fenced", "--format", "json"]);
    let (_, trace, _) = out(&trace);
    let (code, _, stderr) = out(&cli(&["check-trace", &file("trace", &trace)]));
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("this is a trace exported from the simulation"),
        "{stderr}"
    );
}

/// `real`'s refusals of a scenario for another service: the plan is read (the `real` feature)
/// and no server starts.
#[cfg(feature = "real")]
#[test]
fn real_refuses_before_starting_anything() {
    for (arguments, said) in [
        (
            vec!["real", "s2-gc-pause-fenced", "--service", "redis"],
            "its lock service is played on --service postgres, not redis",
        ),
        (
            vec!["real", "s10-redlock-clock-jump", "--service", "redis"],
            "its lock service is played on --service redlock, not redis",
        ),
        (
            vec!["real", "s13-consensus-lock-delay", "--service", "redis"],
            "the lock service is",
        ),
    ] {
        let (code, _, stderr) = out(&cli(&arguments));
        assert_eq!(code, Some(2), "{arguments:?}: {stderr}");
        assert!(stderr.contains(said), "{arguments:?}: {stderr}");
        assert!(!stderr.contains("starting"), "{arguments:?}: {stderr}");
    }
}

/// An unknown service is a usage error in every build: `real` is parsed with or without the
/// reality check.
#[test]
fn real_names_the_services_it_plays() {
    let arguments = ["real", "s2-gc-pause-fenced", "--service", "zookeeper"];
    let (code, _, stderr) = out(&cli(&arguments));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--service: \"zookeeper\" is not one of postgres, redis"),
        "{stderr}"
    );
}

/// A build without the `real` feature lists `real` in its help, and says how to get a build
/// that plays it instead of playing.
#[cfg(not(feature = "real"))]
#[test]
fn real_without_the_feature_says_how_to_get_it() {
    let (code, help, _) = out(&cli(&["--help"]));
    assert_eq!(code, Some(0));
    assert!(help.contains("real "), "{help}");
    let arguments = ["real", "s2-gc-pause-fenced", "--service", "postgres"];
    let (code, stdout, stderr) = out(&cli(&arguments));
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(
        stderr.starts_with("built without the reality check:"),
        "{stderr}"
    );
    assert!(
        stderr.contains("cargo install --path crates/lockstep-cli --features real"),
        "{stderr}"
    );
    assert!(stderr.contains("cargo xtask real"), "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
}

/// A real run against PostgreSQL (started and stopped by the command), its verdicts beside the
/// simulation's, and its recorded history read back by `check-trace`.
#[cfg(feature = "real")]
#[test]
fn real_records_a_history_that_check_trace_reads() {
    let record = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("history-real-s2.json");
    let record = record.to_string_lossy().into_owned();
    let arguments = [
        "real",
        "s2-gc-pause-fenced",
        "--service",
        "postgres",
        "--record",
        &record,
    ];
    let (code, stdout, stderr) = out(&cli(&arguments));
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(
        stderr.contains("starting PostgreSQL on loopback"),
        "{stderr}"
    );
    assert!(
        stdout.contains("invariant              simulated  recorded\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("one_believer           BROKEN     BROKEN: client-b"),
        "{stdout}"
    );
    assert!(
        stdout.contains("no_stale_write         holds      holds"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("1 of 1 real run(s) matched the simulation\n"),
        "{stdout}"
    );
    let (code, stdout, _) = out(&cli(&["check-trace", &record]));
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("recorded by lockstep-real"), "{stdout}");
    assert!(stdout.contains("against PostgreSQL 1"), "{stdout}");
}

/// S4's delayed packet: the crashed client's write, which only the resource's log shows
/// (`applied_ms`), is judged stale when it landed, so the data is harmed.
#[test]
fn a_write_only_the_resources_log_shows_is_judged_when_it_landed() {
    let delayed = include_str!("../../../docs/examples/history-delayed-write.json");
    let (code, stdout, stderr) = out(&cli(&["check-trace", &file("delayed", delayed)]));
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stdout.contains(
            "no_stale_write         BROKEN: client-a's write was accepted at 1606 ms after \
             client-b had been told a higher token"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("one_believer           holds"), "{stdout}");
    assert!(stdout.contains("the data: HARMED"), "{stdout}");
}

/// A fault the real setup cannot make is named first, and the run goes without it: S12's pause
/// of client-1 while Redlock's replies are in flight. Without the pause the run differs from
/// the simulation, and the command says so by its exit code.
#[cfg(feature = "real")]
#[test]
fn real_names_a_fault_it_cannot_make_and_runs_without_it() {
    let arguments = [
        "real",
        "s12-redlock-pause-during-acquisition",
        "--service",
        "redlock",
    ];
    let (code, stdout, stderr) = out(&cli(&arguments));
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stdout.starts_with(
            "not made: the intervention at 1 ms, {\"action\":\"pause\",\"node\":\"client-1\",\
             \"for_ms\":2000}, is not made for real (a client is stopped only while it works"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("the run goes without it\n"), "{stdout}");
    assert!(
        stdout.ends_with("0 of 1 real run(s) matched the simulation\n"),
        "{stdout}"
    );
}
