//! The catalogue reproduces its sources, runs are deterministic, and the invariant checker
//! catches what fencing is there to prevent.

use crate::support::{built_in, run, with_fencing};
use lockstep_sim::analysis::expectation_check;
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::story::export::trace_text;
use lockstep_sim::vocabulary::happening::Happening;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::world::intervention::{Action, Intervention};
use lockstep_sim::world::time::{Millis, VirtualTime};
use lockstep_sim::{Sim, scenario::catalogue};

#[test]
fn every_catalogue_scenario_meets_its_expectations() {
    for built_in in catalogue::BUILT_IN {
        let scenario = built_in
            .load()
            .unwrap_or_else(|e| panic!("{}: {e}", built_in.id));
        assert_eq!(scenario.id, built_in.id, "a file's id is its name");
        assert!(
            !scenario.expectations.is_empty(),
            "{} expects nothing",
            built_in.id
        );
        let sim = run(&scenario);
        for expectation in &scenario.expectations {
            if let Err(failure) = expectation_check::check(expectation, &sim) {
                panic!("{}: {failure}\n{}", built_in.id, trace_text(&sim));
            }
        }
    }
}

#[test]
fn the_same_scenario_and_seed_give_the_same_trace() {
    let scenario = built_in("s2-gc-pause-fenced");
    for seed in [0, 1, 42, u64::MAX] {
        let first = Sim::with_log(&scenario, seed, &[]).map(|mut s| {
            s.run_to_end();
            s.hash()
        });
        let second = Sim::with_log(&scenario, seed, &[]).map(|mut s| {
            s.run_to_end();
            s.hash()
        });
        assert_eq!(first, second, "seed {seed}");
    }
}

#[test]
fn different_seeds_draw_different_latencies() {
    let scenario = built_in("s2-gc-pause-fenced");
    let hashes: std::collections::BTreeSet<String> = (0..5)
        .map(|seed| {
            let mut sim = Sim::with_log(&scenario, seed, &[]).unwrap();
            sim.run_to_end();
            sim.hash()
        })
        .collect();
    assert!(hashes.len() > 1, "the seed must matter");
}

/// Each catalogue scenario's trace is pinned as readable text plus its hash in
/// `tests/golden/<id>.txt`. Run with `UPDATE_GOLDEN=1` to rewrite them after an intended change,
/// then read the diff.
#[test]
fn golden_traces_of_the_catalogue() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    for built_in in catalogue::BUILT_IN {
        let sim = run(&built_in.load().expect("parses"));
        let actual = format!("{}hash {}\n", trace_text(&sim), sim.hash());
        let path = folder.join(format!("{}.txt", built_in.id));
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::create_dir_all(&folder).expect("golden folder");
            std::fs::write(&path, &actual).expect("golden written");
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
                path.display()
            )
        });
        assert_eq!(actual, expected, "{}: the trace changed", built_in.id);
    }
}

/// The ids of the files in `folder` (relative to this crate) whose names end in `.extension`.
fn file_ids(folder: &str, extension: &str) -> Vec<String> {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut ids: Vec<String> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == extension))
        .map(|path| {
            path.file_stem()
                .and_then(|stem| stem.to_str())
                .expect("a UTF-8 file name")
                .to_owned()
        })
        .collect();
    ids.sort();
    ids
}

#[test]
fn the_built_in_catalogue_is_every_file_in_the_scenarios_folder() {
    let mut built_in: Vec<String> = catalogue::BUILT_IN
        .iter()
        .map(|b| b.id.to_owned())
        .collect();
    built_in.sort();
    assert!(!built_in.is_empty(), "the catalogue is empty");
    assert_eq!(built_in, file_ids("../../scenarios", "json"));
}

/// A golden trace whose scenario was renamed or removed would otherwise sit there unchecked.
#[test]
fn every_golden_trace_belongs_to_a_catalogue_scenario() {
    let orphans: Vec<String> = file_ids("tests/golden", "txt")
        .into_iter()
        .filter(|id| catalogue::find(id).is_none())
        .collect();
    assert!(
        orphans.is_empty(),
        "golden traces with no scenario in scenarios/: {orphans:?} (delete them, or restore \
         their scenarios)"
    );
}

#[test]
fn with_fencing_off_the_checker_catches_the_stale_write_and_the_lost_update() {
    let sim = run(&with_fencing(built_in("s2-gc-pause-fenced"), Fencing::Off));
    let last = sim.trace().last().expect("events");
    assert!(
        last.violated.contains(Invariant::NoStaleWrite),
        "{}",
        trace_text(&sim)
    );
    assert!(
        last.violated.contains(Invariant::NoLostUpdate),
        "{}",
        trace_text(&sim)
    );
    let broke_at = sim
        .trace()
        .iter()
        .find(|e| e.broke.contains(Invariant::NoStaleWrite))
        .expect("an event broke it");
    assert!(
        matches!(broke_at.happening, Happening::WriteAccepted { .. }),
        "the accepted stale write itself is the culprit"
    );
    assert_eq!(
        sim.resource_value(),
        1,
        "two increments, one survives: a lost update"
    );
}

#[test]
fn with_fencing_on_the_same_run_rejects_the_stale_write() {
    let sim = run(&built_in("s2-gc-pause-fenced"));
    let last = sim.trace().last().expect("events");
    assert!(!last.violated.contains(Invariant::NoStaleWrite));
    assert!(
        sim.trace()
            .iter()
            .any(|e| matches!(e.happening, Happening::WriteRejected { .. }))
    );
}

#[test]
fn a_user_intervention_changes_the_run_from_its_moment_on() {
    let scenario = built_in("s2-gc-pause-fenced");
    let plain = run(&scenario);
    let resume_early = [Intervention {
        at_ms: VirtualTime(100),
        action: Action::Resume {
            node: "client-a".to_owned(),
        },
    }];
    let mut forked = Sim::with_log(&scenario, scenario.seed, &resume_early).unwrap();
    forked.run_to_end();
    let same_prefix = plain
        .trace()
        .iter()
        .zip(forked.trace())
        .take_while(|(a, b)| a == b)
        .count();
    assert!(same_prefix > 0, "the past is replayed unchanged");
    assert!(
        forked.trace()[same_prefix].time >= VirtualTime(100),
        "divergence starts at the intervention"
    );
    assert!(
        !forked
            .trace()
            .iter()
            .any(|e| e.violated.contains(Invariant::OneBeliever)),
        "resumed before expiry, client-a finishes in time:\n{}",
        trace_text(&forked)
    );
}

#[test]
fn a_log_naming_an_unknown_node_is_an_error_that_names_it() {
    let scenario = built_in("s2-gc-pause-fenced");
    let log = [Intervention {
        at_ms: VirtualTime(10),
        action: Action::Pause {
            node: "client-z".to_owned(),
            for_ms: Some(Millis(5)),
        },
    }];
    let error = Sim::with_log(&scenario, 1, &log).unwrap_err().to_string();
    assert!(
        error.contains("client-z") && error.contains("interventions[1]"),
        "{error}"
    );
}
